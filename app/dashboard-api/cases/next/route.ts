// POST /dashboard-api/cases/next: take the reviewer's next case (due first, unassigned or theirs) and assign it
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { takeNextCase } from "@/lib/cases/next-case";

export const POST = dashboardRoute("cases.work", async ({ user }) => ({
  case: await takeNextCase({ clientId: user.clientId, actor: user }),
}));
