// POST /dashboard-api/cases/:caseId/block-user: block the case's user with a note, confirming its open alerts
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { blockCaseUser } from "@/lib/cases/block-case-user";
import { ZBlockCaseUser } from "@/lib/cases/schemas";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body }) =>
  blockCaseUser({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    ...(await body(ZBlockCaseUser)),
  }),
);
