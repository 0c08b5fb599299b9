// Shared by runRules and replayDecision: evaluate rule versions against variables and aggregate values.
import { compiledRuleVersion, evaluateCondition } from "@/lib/rules/cel";
import type { TAggregateDefinition, TRuleSubject } from "@/lib/rules/schemas";
import { ACTION_SEVERITY, RULE_RISK_LEVELS } from "@/lib/risk/risk-levels";
import { composeOutcome } from "@/lib/screening/compose-outcome";

export type TLoadedRule = {
  ruleRef: string;
  ruleId: string;
  status: string;
  versionId: string;
  version: number;
  name: string;
  riskLevel: string;
  recommendedAction: string;
  reason: string;
  condition: string;
  aggregates: Record<string, TAggregateDefinition>;
};

/** A stored rule version as the evaluator takes it, evaluated in `status`. */
export function loadedRule(
  rule: { ruleRef: string; ruleId: string; status: string },
  v: Pick<TLoadedRule, "version" | "name" | "riskLevel" | "recommendedAction" | "reason" | "condition"> & {
    id: string;
    aggregates: unknown;
  },
): TLoadedRule {
  return {
    ...rule,
    versionId: v.id,
    version: v.version,
    name: v.name,
    riskLevel: v.riskLevel,
    recommendedAction: v.recommendedAction,
    reason: v.reason,
    condition: v.condition,
    aggregates: (v.aggregates ?? {}) as Record<string, TAggregateDefinition>,
  };
}

export type TEvaluatedRule = {
  ruleId: string;
  ruleRef: string;
  versionId: string;
  version: number;
  status: string;
  name: string;
  level: string;
  recommendedAction: string;
  triggered: boolean;
  error?: string;
};

export type TTriggeredRule = {
  id: string;
  name: string;
  level: string;
  reason: string;
  recommendedAction: string;
};

/** Values one rule saw, by aggregate name; `errors` names aggregates that could not be computed. */
export type TRuleAggregates = { values: Record<string, number | null>; errors: Record<string, string> };

/** The evaluation record of one rule (its fields in this order: they are stored as JSON). */
function evaluatedRule(rule: TLoadedRule, triggered: boolean, error?: string): TEvaluatedRule {
  const evaluated: TEvaluatedRule = {
    ruleId: rule.ruleId,
    ruleRef: rule.ruleRef,
    versionId: rule.versionId,
    version: rule.version,
    status: rule.status,
    name: rule.name,
    level: rule.riskLevel,
    recommendedAction: rule.recommendedAction,
    triggered,
  };
  if (error !== undefined) evaluated.error = error;
  return evaluated;
}

export function evaluateRule(
  subject: TRuleSubject,
  rule: TLoadedRule,
  variables: Record<string, unknown>,
  aggregates: TRuleAggregates,
): TEvaluatedRule {
  for (const name in aggregates.errors)
    return evaluatedRule(rule, false, `aggregates.${name}: ${aggregates.errors[name]}`);
  try {
    const compiled = compiledRuleVersion({
      id: rule.versionId,
      subject,
      condition: rule.condition,
      aggregates: rule.aggregates,
    });
    return evaluatedRule(rule, evaluateCondition(subject, compiled.condition, variables, aggregates.values));
  } catch (err) {
    return evaluatedRule(rule, false, (err instanceof Error ? err.message : String(err)).split("\n")[0]!);
  }
}

/** Outcome and the contract's triggered list (active rules only, most severe first). */
export function outcomeOf(rules: readonly TLoadedRule[], evaluated: readonly TEvaluatedRule[]) {
  const outcome = composeOutcome(evaluated);
  const hits = evaluated
    .filter((e) => e.status === "active" && e.triggered)
    .sort(
      (a, b) =>
        RULE_RISK_LEVELS.indexOf(b.level as never) - RULE_RISK_LEVELS.indexOf(a.level as never) ||
        ACTION_SEVERITY.indexOf(a.recommendedAction as never) -
          ACTION_SEVERITY.indexOf(b.recommendedAction as never) ||
        a.ruleId.localeCompare(b.ruleId),
    );
  const byRef = hits.length ? new Map(rules.map((r) => [r.ruleRef, r])) : null;
  const triggered: TTriggeredRule[] = hits.map((e) => ({
    id: e.ruleId,
    name: e.name,
    level: e.level,
    reason: byRef!.get(e.ruleRef)?.reason ?? "",
    recommendedAction: e.recommendedAction,
  }));
  return { ...outcome, triggered, hits };
}
