// GET /dashboard-api/users: users of the session's client (search by id, name or email; status filter)
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { REVIEW_READ_ROLES } from "@/lib/alerts/roles";
import { listUsers, ZListUsersQuery } from "@/lib/users/list-users";

export const GET = dashboardRoute(REVIEW_READ_ROLES, async ({ user, query }) =>
  listUsers({ clientId: user.clientId, query: query(ZListUsersQuery) }),
);
