// GET /dashboard-api/users/:userId/network: the people linked to a user, enriched for the network view
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { getUserNetwork } from "@/lib/links/get-user-network";
import { ZNetworkQuery } from "@/lib/links/network-schemas";

export const GET = dashboardRoute<{ userId: string }>("dashboard.read", async ({ user, params, query }) =>
  getUserNetwork({ clientId: user.clientId, userId: params.userId, query: query(ZNetworkQuery) }),
);
