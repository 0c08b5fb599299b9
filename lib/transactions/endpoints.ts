import { z } from "zod";
import { registerEndpoint } from "@/lib/openapi/registry";
import { ZRiskAssessment } from "@/lib/screening/assessment";

registerEndpoint({
  method: "get",
  path: "/v1/transaction/update",
  tag: "Transactions",
  summary: "Read the assessment of the transaction whose id is `update`",
  description:
    "`/v1/transaction/update` is the update route, so it shadows `GET /v1/transaction/{id}` for that one id; " +
    "this answers exactly what `GET /v1/transaction/{id}` answers for any other id.",
  response: ZRiskAssessment.extend({ transactionId: z.string(), status: z.string() }),
  errors: { 404: "Transaction not found (NOT_FOUND)" },
});
