// GET /dashboard-api/overview: the overview figures of the session's client (refreshed by the page)
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { REVIEW_READ_ROLES } from "@/lib/alerts/roles";
import { getOverview } from "@/lib/overview/get-overview";

export const GET = dashboardRoute(REVIEW_READ_ROLES, async ({ user }) =>
  getOverview({ clientId: user.clientId }),
);
