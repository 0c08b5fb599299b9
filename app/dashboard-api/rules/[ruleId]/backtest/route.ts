// GET /dashboard-api/rules/:ruleId/backtest: the rule's latest backtest, kept until the next run
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { latestBacktest } from "@/lib/backtest/run-backtest";

export const GET = dashboardRoute<{ ruleId: string }>("rules.read", async ({ user, params }) => ({
  run: await latestBacktest(user, { ruleId: params.ruleId }),
}));
