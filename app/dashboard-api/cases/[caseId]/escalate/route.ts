// POST /dashboard-api/cases/:caseId/escalate: escalate to a reporting officer: a linked report draft
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { z } from "zod";
import { escalateCase } from "@/lib/cases/escalate-case";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body: read }) => {
  const body = await read(z.record(z.string(), z.unknown()));
  return escalateCase({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    note: body.note,
    reportType: body.reportType,
  });
});
