// POST /dashboard-api/team/:userId/reset-password: a temporary password, to be replaced at the next sign-in
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { resetMemberPassword } from "@/lib/admin/team";

export const POST = dashboardRoute<{ userId: string }>("team.manage", async ({ user, params }) =>
  resetMemberPassword(user, { id: params.userId }),
);
