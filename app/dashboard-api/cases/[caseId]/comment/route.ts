// POST /dashboard-api/cases/:caseId/comment: a reviewer's comment (required text)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { commentCase } from "@/lib/cases/comment-case";
import { ZCaseComment } from "@/lib/cases/schemas";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body }) =>
  commentCase({ ...(await body(ZCaseComment)), clientId: user.clientId, caseId: params.caseId, actor: user }),
);
