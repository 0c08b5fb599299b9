// POST /dashboard-api/cases/:caseId/alerts: clear or confirm the selected (or all unsettled) alerts with a note
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { reviewCaseAlerts } from "@/lib/cases/review-case-alerts";
import { ZReviewCaseAlerts } from "@/lib/cases/schemas";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body }) =>
  reviewCaseAlerts({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    ...(await body(ZReviewCaseAlerts)),
  }),
);
