// POST /dashboard-api/cases/:caseId/alerts: clear or confirm the selected (or all unsettled) alerts with a note
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { z } from "zod";
import { reviewCaseAlerts } from "@/lib/cases/review-case-alerts";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body: read }) => {
  const body = await read(z.record(z.string(), z.unknown()));
  return reviewCaseAlerts({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    status: body.status,
    alertIds: body.alertIds,
    note: body.note,
  });
});
