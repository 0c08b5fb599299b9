// POST /dashboard-api/users/:userId/network/status: block (or set inactive) selected people of the network with a note
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { changeRingStatus } from "@/lib/links/change-ring-status";
import { ZRingStatus } from "@/lib/links/network-schemas";

export const POST = dashboardRoute<{ userId: string }>("users.review", async ({ user, params, body }) =>
  changeRingStatus({
    clientId: user.clientId,
    userId: params.userId,
    input: await body(ZRingStatus),
    actor: user,
  }),
);
