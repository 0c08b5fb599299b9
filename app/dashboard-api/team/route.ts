// GET /dashboard-api/team: dashboard users; POST: create one with a role and initial password
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZCreateTeamMember } from "@/lib/admin/schemas";
import { createTeamMember, listTeam } from "@/lib/admin/team";

export const GET = dashboardRoute("team.manage", async ({ user }) => ({ members: await listTeam(user) }));

export const POST = dashboardRoute("team.manage", async ({ user, body }) =>
  createTeamMember(user, await body(ZCreateTeamMember)),
);
