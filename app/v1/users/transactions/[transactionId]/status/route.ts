// PUT /v1/users/transactions/{transactionId}/status: set the status of a transaction's user and/or recipients
import { methods, withClient } from "@/lib/http/with-client";
import { optionalBody } from "@/lib/http/optional-body";
import { ZTransactionPartiesStatus } from "@/lib/users/schemas";
import { setTransactionPartiesStatus } from "@/lib/users/set-transaction-parties-status";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withClient<{ transactionId: string }>(async (ctx) => {
    const input = await optionalBody(ctx, ZTransactionPartiesStatus);
    const result = await setTransactionPartiesStatus({
      clientId: ctx.client.id,
      transactionId: ctx.params.transactionId,
      input,
    });
    return {
      transactionId: result.transactionId,
      users: result.users.map((u) => ({ id: u.id, status: u.status })),
    };
  }),
});
