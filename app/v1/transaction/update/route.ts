// POST /v1/transaction/update: status, feedback and payment-method changes (re-screened with monitoring;
// the read of the stored row then travels with the API key read, withClientRead)
// GET /v1/transaction/update: the transaction whose id is "update" (this static path shadows {id})
import { methods, withClient, withClientRead } from "@/lib/http/with-client";
import { plannedUpdateRead, updateTransaction } from "@/lib/screening/update-transaction";
import { getTransactionAssessment } from "@/lib/transactions/get-transaction-assessment";
import { ZTransactionUpdate } from "@/lib/transactions/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient(async ({ client }) => getTransactionAssessment({ clientId: client.id, id: "update" })),
  POST: withClientRead(ZTransactionUpdate, plannedUpdateRead, ({ client, body, prefetched }) =>
    updateTransaction({ client, body, prefetched }),
  ),
});
