// Query keys and fetchers of the rules screens (dashboard API under /dashboard-api/rules).
import { fetchJson } from "@/lib/admin/fetch-json";
import type { TWrittenVersion } from "@/lib/rules/write-rule-version";
import type { TBacktestRunView } from "@/lib/backtest/run-backtest";
import type { TFieldError } from "@/lib/admin/validate-rule-draft";

export const ruleKeys = {
  all: ["rules"] as const,
  detail: (ruleId: string) => ["rules", ruleId] as const,
  validation: (definition: unknown) => ["rules", "validate", definition] as const,
};

export const rulesApi = {
  validate: (definition: Record<string, unknown>) =>
    fetchJson<{ valid: boolean; errors: TFieldError[] }>("/dashboard-api/rules/validate", {
      body: { definition },
    }),
  create: (definition: Record<string, unknown>) =>
    fetchJson<TWrittenVersion>("/dashboard-api/rules", { body: { definition } }),
  update: (ruleId: string, definition: Record<string, unknown>) =>
    fetchJson<TWrittenVersion>(`/dashboard-api/rules/${encodeURIComponent(ruleId)}`, {
      method: "PUT",
      body: { definition },
    }),
  setStatus: (ruleId: string, status: string) =>
    fetchJson<TWrittenVersion>(`/dashboard-api/rules/${encodeURIComponent(ruleId)}/status`, {
      body: { status },
    }),
  startBacktest: (input: { ruleId: string; version?: number; from: number; to: number }) =>
    fetchJson<TBacktestRunView>("/dashboard-api/backtests", { body: input }),
  continueBacktest: (runId: string, stop = false) =>
    fetchJson<TBacktestRunView>(`/dashboard-api/backtests/${encodeURIComponent(runId)}`, { body: { stop } }),
};
