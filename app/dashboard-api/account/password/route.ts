// POST /dashboard-api/account/password: the signed-in member's own new password ({ password, confirm })
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZSetOwnPassword } from "@/lib/admin/schemas";
import { setOwnPassword } from "@/lib/admin/team";

export const POST = dashboardRoute("account.password", async ({ user, body }) =>
  setOwnPassword(user, await body(ZSetOwnPassword)),
);
