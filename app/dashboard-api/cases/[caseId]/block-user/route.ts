// POST /dashboard-api/cases/:caseId/block-user: block the case's user with a note, confirming its open alerts
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { z } from "zod";
import { blockCaseUser } from "@/lib/cases/block-case-user";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body: read }) => {
  const body = await read(z.record(z.string(), z.unknown()));
  return blockCaseUser({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    note: body.note,
    closeAlerts: body.closeAlerts,
  });
});
