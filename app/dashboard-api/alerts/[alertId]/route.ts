// GET /dashboard-api/alerts/:alertId: the alert's fired rule with the values that fired it (review dialog)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { getAlertExplanation } from "@/lib/alerts/get-alert-explanation";

export const GET = dashboardRoute<{ alertId: string }>("dashboard.read", async ({ user, params }) =>
  getAlertExplanation({ clientId: user.clientId, alertId: params.alertId }),
);
