// POST /dashboard-api/backtests: start a draft-vs-live backtest of a rule (replaces its previous run)
// GET /dashboard-api/backtests?ruleId=: the rule's latest run, kept until the next one
import { ALL_ROLES } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { ZBacktestQuery, ZBacktestStart } from "@/lib/admin/schemas";
import { latestBacktest, startBacktest } from "@/lib/backtest/run-backtest";

export const GET = dashboardRoute(ALL_ROLES, async ({ user, query }) => ({
  run: await latestBacktest(user, query(ZBacktestQuery)),
}));

export const POST = dashboardRoute(["admin", "reviewer"], async ({ user, body }) =>
  startBacktest(user, await body(ZBacktestStart)),
);
