// POST /dashboard-api/users/:userId/status: block, unblock or set active/inactive with a comment (same webhooks as /v1)
import { z } from "zod";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { changeUserStatusFromDashboard } from "@/lib/users/change-user-status-from-dashboard";

const ZBody = z.object({
  status: z.string(),
  comment: z.string().optional(),
  closeAlerts: z.boolean().optional(),
});

export const POST = dashboardRoute<{ userId: string }>("users.review", async ({ user, params, body }) => {
  const { status, comment, closeAlerts } = await body(ZBody);
  return changeUserStatusFromDashboard({
    clientId: user.clientId,
    userId: params.userId,
    status,
    comment,
    closeAlerts,
    actor: user,
  });
});
