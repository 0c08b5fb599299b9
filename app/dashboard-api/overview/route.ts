// GET /dashboard-api/overview: the overview figures of the session's client (refreshed by the page)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { getRecentOverview } from "@/lib/overview/get-overview";

export const GET = dashboardRoute("dashboard.read", async ({ user }) =>
  getRecentOverview({ clientId: user.clientId }),
);
