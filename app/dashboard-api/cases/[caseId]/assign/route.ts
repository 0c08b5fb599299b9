// POST /dashboard-api/cases/:caseId/assign: assign the case to a reviewer (assigneeId, or null)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { z } from "zod";
import { assignCase } from "@/lib/cases/assign-case";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body: read }) => {
  const body = await read(z.record(z.string(), z.unknown()));
  return assignCase({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    assigneeId: body.assigneeId,
  });
});
