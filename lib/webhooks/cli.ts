// `webhooks redeliver --client ID --delivery ID`: an operator's redelivery of a failed delivery.
import { CliError, requireFlag } from "@/lib/cli/args";
import { extraCommands } from "@/lib/cli/commands";
import { ApiError } from "@/lib/http/errors";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";

extraCommands["webhooks redeliver"] = async (args) => {
  const clientId = requireFlag(args, "client");
  const deliveryId = requireFlag(args, "delivery");
  try {
    return await redeliverWebhook({ clientId, deliveryId });
  } catch (err) {
    if (err instanceof ApiError) throw new CliError(err.message);
    throw err;
  }
};
