// GET /dashboard-api/cases/:caseId: the case page's data (subject, alerts by transaction, history)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { getCaseDetail } from "@/lib/cases/get-case-detail";

export const GET = dashboardRoute<{ caseId: string }>("dashboard.read", async ({ user, params }) =>
  getCaseDetail({ clientId: user.clientId, caseId: params.caseId, viewer: user }),
);
