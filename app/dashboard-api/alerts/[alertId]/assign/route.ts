// POST /dashboard-api/alerts/:alertId/assign: assign the alert to the signed-in user, or release it ({ assign: false })
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { assignAlert } from "@/lib/alerts/assign-alert";
import { REVIEW_WRITE_ROLES } from "@/lib/alerts/roles";
import { ZAssignAlert } from "@/lib/alerts/schemas";

const ZBody = ZAssignAlert.omit({ alertId: true });

export const POST = dashboardRoute<{ alertId: string }>(
  REVIEW_WRITE_ROLES,
  async ({ user, params, body }) => {
    const { assign } = await body(ZBody);
    return assignAlert({ clientId: user.clientId, alertId: params.alertId, actor: user, assign });
  },
);
