// POST /dashboard-api/cases/:caseId/close: close with an outcome and a note
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { z } from "zod";
import { closeCase } from "@/lib/cases/close-case";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body: read }) => {
  const body = await read(z.record(z.string(), z.unknown()));
  return closeCase({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    outcome: body.outcome,
    note: body.note,
  });
});
