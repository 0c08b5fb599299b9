// POST /dashboard-api/users/:userId/status: block, unblock or set active/inactive with a comment (same webhooks as /v1)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import {
  changeUserStatusFromDashboard,
  ZDashboardUserStatus,
} from "@/lib/users/change-user-status-from-dashboard";

export const POST = dashboardRoute<{ userId: string }>("users.review", async ({ user, params, body }) =>
  changeUserStatusFromDashboard({
    ...(await body(ZDashboardUserStatus)),
    clientId: user.clientId,
    userId: params.userId,
    actor: user,
  }),
);
