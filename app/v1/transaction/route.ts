// POST /v1/transaction: screen a transaction
import { methods, withClient } from "@/lib/http/with-client";
import { screenTransaction } from "@/lib/screening/screen-transaction";
import { ZTransaction } from "@/lib/transactions/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => screenTransaction({ client, body: await body(ZTransaction) })),
});
