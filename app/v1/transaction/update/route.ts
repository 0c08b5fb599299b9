// POST /v1/transaction/update: status, feedback and payment-method changes (re-screened with monitoring)
import { methods, withClient } from "@/lib/http/with-client";
import { updateTransaction } from "@/lib/screening/update-transaction";
import { ZTransactionUpdate } from "@/lib/transactions/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) =>
    updateTransaction({ client, body: await body(ZTransactionUpdate) }),
  ),
});
