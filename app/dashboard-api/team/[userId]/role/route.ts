// POST /dashboard-api/team/:userId/role: give a member another role ({ role }); never demotes the last admin
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZChangeMemberRole } from "@/lib/admin/schemas";
import { changeMemberRole } from "@/lib/admin/team";

export const POST = dashboardRoute<{ userId: string }>("team.manage", async ({ user, params, body }) =>
  changeMemberRole(user, { id: params.userId, ...(await body(ZChangeMemberRole)) }),
);
