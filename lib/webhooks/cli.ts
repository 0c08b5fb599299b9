// `webhooks redeliver --client ID --delivery ID`: an operator's redelivery of a failed delivery.
import { CliError, requireFlag } from "@/lib/cli/args";
import { extraCommands } from "@/lib/cli/commands";
import { DomainError } from "@/lib/errors/domain-error";
import { redeliverWebhook } from "@/lib/webhooks/redeliver-webhook";

extraCommands["webhooks redeliver"] = async (args) => {
  const clientId = requireFlag(args, "client");
  const deliveryId = requireFlag(args, "delivery");
  try {
    return await redeliverWebhook({ clientId, deliveryId });
  } catch (err) {
    if (err instanceof DomainError) throw new CliError(err.message);
    throw err;
  }
};
