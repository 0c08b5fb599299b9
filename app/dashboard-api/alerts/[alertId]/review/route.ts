// POST /dashboard-api/alerts/:alertId/review: cleared | confirmed | escalated with feedback (emits alert.reviewed)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { reviewAlert } from "@/lib/alerts/review-alert";
import { ZReviewAlert } from "@/lib/alerts/schemas";

export const POST = dashboardRoute<{ alertId: string }>("alerts.review", async ({ user, params, body }) =>
  reviewAlert({
    ...(await body(ZReviewAlert)),
    clientId: user.clientId,
    alertId: params.alertId,
    reviewer: user,
  }),
);
