import { ZGetCaseResponse, ZListCasesQuery, ZListCasesResponse } from "@/lib/cases/schemas";
import { registerEndpoint } from "@/lib/openapi/registry";

const tag = "Cases";

registerEndpoint({
  method: "get",
  path: "/v1/cases",
  tag,
  summary: "List cases",
  description:
    "Read-only, for clients that mirror cases into their back office (decisions §12). A case groups the alerts of one user " +
    "(or of a merchant when the alert has no user) until it is closed: a new alert joins the subject's case that is not closed, " +
    "else opens a new one (`case.created`). `status` takes comma-separated values of `open`, `in_review`, `escalated`, `closed`; " +
    "most recently created first; `page` from 1, `limit` 1–100 (default 20). A malformed value or a limit over 100 is a 400. " +
    "`priority` is the highest risk level among the case's alerts; `dueAt` comes from the client's SLA for that priority; " +
    "`outcome` (`false_positive`, `confirmed_fraud`, `reported`, `other`) and `note` are set when the case is closed " +
    "(`case.closed`); `reportId` is the report draft an escalation created.",
  query: ZListCasesQuery,
  response: ZListCasesResponse,
});

registerEndpoint({
  method: "get",
  path: "/v1/cases/{caseId}",
  tag,
  summary: "Read a case",
  description:
    "One case with the ids of its alerts (`alertIds`, oldest first). Other clients' cases answer 404.",
  response: ZGetCaseResponse,
  errors: { 404: "Unknown case (`/caseId: Case not found`)" },
});
