// POST /dashboard-api/alerts/:alertId/assign: assign the alert to the signed-in user, or release it ({ assign: false })
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { assignAlert } from "@/lib/alerts/assign-alert";
import { ZAssignAlert } from "@/lib/alerts/schemas";

const ZBody = ZAssignAlert.omit({ alertId: true });

export const POST = dashboardRoute<{ alertId: string }>("alerts.review", async ({ user, params, body }) => {
  const { assign } = await body(ZBody);
  return assignAlert({ clientId: user.clientId, alertId: params.alertId, actor: user, assign });
});
