// GET /v1/transaction/{id}: the stored assessment of a transaction
import { methods, withClient } from "@/lib/http/with-client";
import { getTransactionAssessment } from "@/lib/transactions/get-transaction-assessment";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient<{ id: string }>(async ({ client, params }) =>
    getTransactionAssessment({ clientId: client.id, id: params.id }),
  ),
});
