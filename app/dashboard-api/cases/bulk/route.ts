// POST /dashboard-api/cases/bulk: assign the selected cases, or close them as false positives with a note
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { bulkCases } from "@/lib/cases/bulk-cases";
import { ZBulkCases } from "@/lib/cases/schemas";

export const POST = dashboardRoute("cases.work", async ({ user, body }) =>
  bulkCases({ clientId: user.clientId, actor: user, input: await body(ZBulkCases) }),
);
