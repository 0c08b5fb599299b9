import { registerEndpoint } from "@/lib/openapi/registry";
import {
  REPORT_TRANSACTIONS_MAX,
  ZBulkReports,
  ZBulkReportsResponse,
  ZCreateReport,
  ZCreateReportResponse,
  ZGetReportQuery,
  ZListReportsQuery,
  ZListReportsResponse,
  ZReportResponse,
} from "@/lib/reports/schemas";

const tag = "Reports";
const forbidden = "Reporting is not enabled for the client (FORBIDDEN)";

registerEndpoint({
  method: "post",
  path: "/v1/report",
  tag,
  summary: "Create a draft regulatory report",
  description:
    "Creates a draft (status `draft`, `requiresReview` true, `createdById` `api`) populated in the goAML structure from the client's reporting profile, " +
    "the request or the template (`templateId`: title, reason, action, indicators) and the referenced user, merchant and transactions. " +
    "Subject rule: at least one of userId, user, transactionIds or transactions (a merchant is a counterparty, not a subject). " +
    "Identifier forms read stored entities (404 naming each missing path, e.g. `/transactionIds/1: Transaction not found`); inline forms store them first: " +
    "an inline user or merchant is created or updated as by POST /v1/user and POST /v1/merchantRequest (without screening), inline transactions are screened and stored as by POST /v1/transaction. " +
    "Repeating an `id` answers the existing draft unchanged. A `content` field is ignored: content is never written through the API. " +
    "`incomplete` lists the content paths (e.g. `transactions[0].t_from_my_client.from_person.birthdate`) a reviewer must supply for a valid goAML file. " +
    `At most ${REPORT_TRANSACTIONS_MAX} entries in \`transactions\` and in \`transactionIds\` (400 beyond, naming the field). ` +
    "Each inline transaction is a screening and costs one request of the key's rate limit on top of the request itself (429 when the key cannot pay for all of them, before anything is stored).",
  body: ZCreateReport,
  response: ZCreateReportResponse,
  errors: {
    403: forbidden,
    404: "A referenced userId, transactionIds entry, merchantId or templateId does not exist",
    429: "Rate limited: the request and each inline transaction cost one request of the key's limit",
  },
});

registerEndpoint({
  method: "post",
  path: "/v1/reports/bulk",
  tag,
  summary: "Create up to 100 draft reports",
  description:
    "Each entry follows POST /v1/report and is created on its own: `created` and `failed` carry the zero-based `index` of the entry; a failed entry's `error` is the " +
    "`{ type, message, details }` a single request would have answered (VALIDATION_ERROR, NOT_FOUND). More than 100 entries, or no `reports` array, is a 400 and nothing is created. " +
    "The request costs one request of the key's rate limit per entry and one per inline transaction (each is screened), paid before anything is created.",
  body: ZBulkReports,
  response: ZBulkReportsResponse,
  errors: { 403: forbidden, 429: "Rate limited" },
});

registerEndpoint({
  method: "get",
  path: "/v1/reports/{reportId}",
  tag,
  summary: "Read a report",
  description:
    "`include` is a comma-separated list of `content` (the goAML-shaped content) and `audit` (the hash-chained audit trail: seq, at, actorType, actorId, action, changes, prevHash, hash). " +
    "Every read is appended to the report's audit trail before answering. Other clients' reports answer 404.",
  query: ZGetReportQuery,
  response: ZReportResponse,
  errors: { 403: forbidden, 404: "Unknown report (`/reportId: Report not found`)" },
});

registerEndpoint({
  method: "get",
  path: "/v1/reports",
  tag,
  summary: "List reports",
  description:
    "Most recently created first. `status` and `reportType` take comma-separated values; `createdFrom`/`createdTo` are inclusive epoch ms; " +
    "`page` from 1, `limit` 1–100 (default 20). A malformed value or a limit over 100 is a 400. `pages` is ceil(total / limit).",
  query: ZListReportsQuery,
  response: ZListReportsResponse,
  errors: { 403: forbidden },
});
