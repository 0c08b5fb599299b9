// GET /dashboard-api/users: users of the session's client (search by id, name or email; status filter)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { listUsers, ZListUsersQuery } from "@/lib/users/list-users";

export const GET = dashboardRoute("dashboard.read", async ({ user, query }) =>
  listUsers({ clientId: user.clientId, query: query(ZListUsersQuery) }),
);
