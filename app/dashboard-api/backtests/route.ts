// POST /dashboard-api/backtests: evaluate one batch of a rule backtest (the page loops on nextCursor)
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { ZBacktestBatch } from "@/lib/admin/schemas";
import { runBacktestBatch } from "@/lib/backtest/run-backtest-batch";

export const POST = dashboardRoute("rules.draft", async ({ user, body }) =>
  runBacktestBatch(user, await body(ZBacktestBatch)),
);
