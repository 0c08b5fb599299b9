// POST /dashboard-api/backtests: start a draft-vs-live backtest of a rule (replaces its previous run)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZBacktestStart } from "@/lib/admin/schemas";
import { startBacktest } from "@/lib/backtest/run-backtest";

export const POST = dashboardRoute("rules.draft", async ({ user, body }) =>
  startBacktest(user, await body(ZBacktestStart)),
);
