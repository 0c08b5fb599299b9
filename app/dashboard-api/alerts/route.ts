// GET /dashboard-api/alerts: the alerts queue page (filters, keyset cursor) of the session's client
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { listAlerts } from "@/lib/alerts/list-alerts";
import { REVIEW_READ_ROLES } from "@/lib/alerts/roles";
import { ZListAlertsQuery } from "@/lib/alerts/schemas";

export const GET = dashboardRoute(REVIEW_READ_ROLES, async ({ user, query }) =>
  listAlerts({ clientId: user.clientId, query: query(ZListAlertsQuery), currentUserId: user.id }),
);
