// POST /dashboard-api/team/:userId/unlock: lift a sign-in lock after repeated failed sign-ins
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { unlockTeamMember } from "@/lib/admin/team";

export const POST = dashboardRoute<{ userId: string }>("team.manage", async ({ user, params }) =>
  unlockTeamMember(user, { id: params.userId }),
);
