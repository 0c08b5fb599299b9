import { z } from "zod";
import { ZEvent, ZEventAccepted } from "@/lib/events/schemas";
import { ZMerchant } from "@/lib/merchants/schemas";
import { registerEndpoint } from "@/lib/openapi/registry";
import { ZPaymentInstrumentAssessment, ZPaymentInstrumentRequest } from "@/lib/payment-instruments/schemas";
import { ZRiskAssessment } from "@/lib/screening/assessment";
import { ZTransaction, ZTransactionUpdate } from "@/lib/transactions/schemas";
import { ZUser } from "@/lib/users/schemas";

const ZTransactionAssessment = ZRiskAssessment.extend({ transactionId: z.string(), status: z.string() });

registerEndpoint({
  method: "post",
  path: "/v1/transaction",
  tag: "Transactions",
  summary: "Screen a transaction",
  description:
    "Stores the transaction (with an inline user, merchant or device), evaluates the client's transaction rules and " +
    "answers the risk assessment. Resending an id with an identical body returns the stored assessment (no new alerts or " +
    "webhooks); a different body is screened again and replaces the stored transaction.",
  body: ZTransaction,
  response: ZTransactionAssessment,
});
registerEndpoint({
  method: "get",
  path: "/v1/transaction/{id}",
  tag: "Transactions",
  summary: "Read a transaction's assessment",
  response: ZTransactionAssessment,
  errors: { 404: "Transaction not found (NOT_FOUND)" },
});
registerEndpoint({
  method: "post",
  path: "/v1/transaction/update",
  tag: "Transactions",
  summary: "Update a transaction's status, feedback or payment method",
  description:
    'Answers `{ "status": "Success" }`, or a new risk assessment when transactionUpdateMonitoring is enabled for the client.',
  body: ZTransactionUpdate,
  response: z.union([z.object({ status: z.literal("Success") }), ZTransactionAssessment]),
  errors: { 404: "Transaction not found (NOT_FOUND)" },
});
registerEndpoint({
  method: "post",
  path: "/v1/user/onboard",
  tag: "Users",
  summary: "Onboard (screen) a user",
  description:
    "Creates or updates the user and screens it with the client's user rules; emits user.screened.",
  body: ZUser,
  response: ZRiskAssessment,
});
registerEndpoint({
  method: "post",
  path: "/v1/merchantRequest",
  tag: "Merchants",
  summary: "Store and screen a merchant",
  description:
    "Business clients with merchantRiskAssessment only. The first timestamp of an id is kept; previous values are kept as history.",
  body: ZMerchant,
  response: ZRiskAssessment,
  errors: { 403: "Not a business client, or merchant risk assessment not enabled (FORBIDDEN)" },
});
registerEndpoint({
  method: "put",
  path: "/v1/paymentInstrument",
  tag: "Payment instruments",
  summary: "Link or unlink a payment instrument",
  description: "Screened with the client's paymentInstrument rules when enabled; otherwise low / ALLOW / [].",
  body: ZPaymentInstrumentRequest,
  response: ZPaymentInstrumentAssessment,
});
registerEndpoint({
  method: "get",
  path: "/v1/paymentInstrument",
  tag: "Payment instruments",
  summary: "Missing instrument id (always 400)",
  errors: { 400: "The id path segment is missing (VALIDATION_ERROR)" },
});
registerEndpoint({
  method: "get",
  path: "/v1/paymentInstrument/{id}",
  tag: "Payment instruments",
  summary: "Read a payment instrument's assessment",
  description: "Rules are not re-evaluated on read: triggered is always empty.",
  response: ZPaymentInstrumentAssessment,
  errors: { 404: "Payment instrument not found (NOT_FOUND)" },
});
registerEndpoint({
  method: "post",
  path: "/v1/event",
  tag: "Events",
  summary: "Submit a non-monetary event",
  description:
    'With eventRules enabled: a risk assessment and an event.screened webhook. Otherwise `{ id, status: "success" }` and the event is stored.',
  body: ZEvent,
  response: z.union([ZRiskAssessment, ZEventAccepted]),
});
