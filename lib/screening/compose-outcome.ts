// Outcome of a screening from its rule results, exactly as docs/decisions.md §6.
import { ACTION_SEVERITY, RULE_RISK_LEVELS } from "@/lib/risk/risk-levels";

export type TRuleResult = { status: string; triggered: boolean; level: string; recommendedAction: string };
export type TOutcome = { riskLevel: string; recommendedAction: string };

function rank(list: readonly string[], value: string): number {
  const index = list.indexOf(value);
  return index === -1 ? list.length : index;
}

/**
 * Only active rules count. `n/a` when no active rule exists for the subject, `low`/ALLOW when
 * active rules ran and none triggered, else the highest triggered level and, among the rules at
 * that level, the most severe action.
 */
export function composeOutcome(results: readonly TRuleResult[]): TOutcome {
  const active = results.filter((r) => r.status === "active");
  if (active.length === 0) return { riskLevel: "n/a", recommendedAction: "ALLOW" };
  const triggered = active.filter((r) => r.triggered);
  if (triggered.length === 0) return { riskLevel: "low", recommendedAction: "ALLOW" };
  let best = triggered[0]!;
  for (const r of triggered.slice(1)) {
    const levelDiff =
      RULE_RISK_LEVELS.indexOf(r.level as never) - RULE_RISK_LEVELS.indexOf(best.level as never);
    if (
      levelDiff > 0 ||
      (levelDiff === 0 &&
        rank(ACTION_SEVERITY, r.recommendedAction) < rank(ACTION_SEVERITY, best.recommendedAction))
    ) {
      best = r;
    }
  }
  return { riskLevel: best.level, recommendedAction: best.recommendedAction };
}
