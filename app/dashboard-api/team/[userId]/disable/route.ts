// POST /dashboard-api/team/:userId/disable: disable a dashboard user (sessions end at once)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { disableTeamMember } from "@/lib/admin/team";

export const POST = dashboardRoute<{ userId: string }>("team.manage", async ({ user, params }) =>
  disableTeamMember(user, { id: params.userId }),
);
