// GET /dashboard-api/alerts: the alerts queue page (filters, keyset cursor) of the session's client
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { listAlerts } from "@/lib/alerts/list-alerts";
import { ZListAlertsQuery } from "@/lib/alerts/schemas";

export const GET = dashboardRoute("dashboard.read", async ({ user, query }) =>
  listAlerts({ clientId: user.clientId, query: query(ZListAlertsQuery), currentUserId: user.id }),
);
