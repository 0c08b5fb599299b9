// POST /dashboard-api/users/:userId/network/status: block (or set inactive) selected people of the network with a note
import { z } from "zod";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { changeRingStatus } from "@/lib/links/change-ring-status";

export const POST = dashboardRoute<{ userId: string }>("users.review", async ({ user, params, body }) =>
  changeRingStatus({
    clientId: user.clientId,
    userId: params.userId,
    input: await body(z.record(z.string(), z.unknown())),
    actor: user,
  }),
);
