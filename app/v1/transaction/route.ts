// POST /v1/transaction: screen a transaction. The screening's read travels with the API key read
// (withClientRead): a transaction that refers to stored parties costs two statements in all.
import { methods, withClientRead } from "@/lib/http/with-client";
import { plannedTransactionRead, screenTransaction } from "@/lib/screening/screen-transaction";
import { ZTransaction } from "@/lib/transactions/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClientRead(ZTransaction, plannedTransactionRead, ({ client, body, prefetched }) =>
    screenTransaction({ client, body, prefetched }),
  ),
});
