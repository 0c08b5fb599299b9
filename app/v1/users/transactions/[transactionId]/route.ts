// GET /v1/users/transactions/{transactionId}: the user who made a transaction
import { methods, withClient } from "@/lib/http/with-client";
import { getTransactionUser } from "@/lib/users/get-transaction-user";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient<{ transactionId: string }>(async ({ client, params }) => ({
    user: await getTransactionUser({ clientId: client.id, transactionId: params.transactionId }),
  })),
});
