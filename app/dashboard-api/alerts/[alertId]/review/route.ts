// POST /dashboard-api/alerts/:alertId/review: cleared | confirmed | escalated with feedback (emits alert.reviewed)
import { z } from "zod";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { reviewAlert } from "@/lib/alerts/review-alert";

const ZBody = z.object({ status: z.string(), feedback: z.string().optional() });

export const POST = dashboardRoute<{ alertId: string }>("alerts.review", async ({ user, params, body }) => {
  const { status, feedback } = await body(ZBody);
  return reviewAlert({
    clientId: user.clientId,
    alertId: params.alertId,
    status,
    feedback,
    reviewer: user,
  });
});
