// POST /dashboard-api/team/:userId/disable: disable a dashboard user (sessions end at once)
import { ADMIN_ONLY } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { disableTeamMember } from "@/lib/admin/team";

export const POST = dashboardRoute<{ userId: string }>(ADMIN_ONLY, async ({ user, params }) =>
  disableTeamMember(user, { id: params.userId }),
);
