// POST /dashboard-api/backtests/:runId: evaluate the run's next batch, or stop it ({ stop: true })
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZBacktestContinue } from "@/lib/admin/schemas";
import { continueBacktest } from "@/lib/backtest/run-backtest";

export const POST = dashboardRoute<{ runId: string }>("rules.draft", async ({ user, params, body }) =>
  continueBacktest(user, { runId: params.runId, ...(await body(ZBacktestContinue)) }),
);
