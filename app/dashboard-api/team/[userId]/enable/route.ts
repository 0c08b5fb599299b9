// POST /dashboard-api/team/:userId/enable: let a disabled dashboard user sign in again
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { enableTeamMember } from "@/lib/admin/team";

export const POST = dashboardRoute<{ userId: string }>("team.manage", async ({ user, params }) =>
  enableTeamMember(user, { id: params.userId }),
);
