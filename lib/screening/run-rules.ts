import type { TFxConversion } from "@/lib/fx/rates";
import type { TListLookup } from "@/lib/lists/in-list";
import { compiledRuleVersion } from "@/lib/rules/cel";
import type { TAggregateDefinition } from "@/lib/rules/schemas";
import { aggregateKey, type TAggregateRequest, type TAggregateValue } from "@/lib/screening/aggregates";
import {
  evaluateRule,
  outcomeOf,
  type TEvaluatedRule,
  type TLoadedRule,
  type TRuleAggregates,
  type TTriggeredRule,
} from "@/lib/screening/evaluate-rules";

export type { TTriggeredRule } from "@/lib/screening/evaluate-rules";

export type TSubject = "transaction" | "user" | "merchant" | "paymentInstrument" | "event";
export type TFiredRule = TTriggeredRule & {
  ruleRef: string;
  versionId: string;
  version: number;
  status: string;
};

/** The aggregates the rules need (computed once per distinct definition) and the versions that do not compile. */
export function planAggregates(
  rules: readonly TLoadedRule[],
  subject: TSubject,
): { requests: TAggregateRequest[]; compileErrors: Map<string, string> } {
  const requests: TAggregateRequest[] = [];
  const compileErrors = new Map<string, string>();
  for (const rule of rules) {
    const specs = Object.values(rule.aggregates ?? {}) as TAggregateDefinition[];
    if (specs.length === 0) continue;
    try {
      const compiled = compiledRuleVersion({
        id: rule.versionId,
        subject,
        condition: rule.condition,
        aggregates: rule.aggregates,
      });
      for (const [name, spec] of Object.entries(rule.aggregates))
        requests.push({ spec, where: compiled.wheres[name] });
    } catch (err) {
      compileErrors.set(rule.versionId, (err as Error).message);
    }
  }
  return { requests, compileErrors };
}

// A rule's aggregates as (name, aggregateKey) pairs: the rules of a screening are the cached
// configuration's objects, so this is computed once per rule version and process, not per screening.
const aggregateKeysByRule = new WeakMap<TLoadedRule, ReadonlyArray<readonly [string, string]>>();

function ruleAggregateKeys(rule: TLoadedRule): ReadonlyArray<readonly [string, string]> {
  let keys = aggregateKeysByRule.get(rule);
  if (!keys) {
    keys = Object.entries(rule.aggregates ?? {}).map(([name, spec]) => [name, aggregateKey(spec)] as const);
    aggregateKeysByRule.set(rule, keys);
  }
  return keys;
}

const NO_AGGREGATES: TRuleAggregates = Object.freeze({
  values: Object.freeze({}),
  errors: Object.freeze({}),
}) as TRuleAggregates;

/** Evaluates the rules against the variables and the computed aggregates: the decision's content. */
export function evaluateRules(
  rules: readonly TLoadedRule[],
  subject: TSubject,
  variables: Record<string, unknown>,
  values: ReadonlyMap<string, TAggregateValue>,
  compileErrors: ReadonlyMap<string, string>,
  /** Wraps each rule's evaluation (a hook for per-screening context such as sanctions matches). */
  wrap?: (evaluate: () => TEvaluatedRule) => TEvaluatedRule,
) {
  const aggregatesByVersion: Record<string, Record<string, number | null>> = {};
  const evaluated = rules.map((rule) => {
    const keys = ruleAggregateKeys(rule);
    let seen = NO_AGGREGATES;
    if (keys.length) {
      seen = { values: {}, errors: {} };
      // a version that no longer compiles reports that error from evaluateRule
      if (!compileErrors.has(rule.versionId)) {
        for (const [name, key] of keys) {
          const result = values.get(key);
          if (!result) seen.errors[name] = "not computed";
          else if ("error" in result) seen.errors[name] = result.error;
          else seen.values[name] = result.value;
        }
      }
      aggregatesByVersion[rule.versionId] = seen.values;
    }
    return wrap
      ? wrap(() => evaluateRule(subject, rule, variables, seen))
      : evaluateRule(subject, rule, variables, seen);
  });

  const { riskLevel, recommendedAction, triggered, hits } = outcomeOf(rules, evaluated);
  const firedActive: TFiredRule[] = hits.map((e, i) => ({
    id: e.ruleId,
    name: e.name,
    level: e.level,
    reason: triggered[i]!.reason,
    recommendedAction: e.recommendedAction,
    ruleRef: e.ruleRef,
    versionId: e.versionId,
    version: e.version,
    status: e.status,
  }));
  return { riskLevel, recommendedAction, triggered, firedActive, evaluated, aggregatesByVersion };
}

/**
 * What a decision stores as the CEL input, so a replay needs nothing else: the variables, the
 * aggregate values, the transaction's currency conversion (the rate used), every list lookup and
 * the links.* values each rule used.
 */
export function decisionInput({
  variables,
  aggregates,
  timestamp,
  fx,
  lookups,
  links,
}: {
  variables: Record<string, unknown>;
  aggregates: Record<string, Record<string, number | null>>;
  timestamp: number;
  fx?: TFxConversion;
  lookups: readonly TListLookup[];
  links?: Record<string, Record<string, number>>;
}): Record<string, unknown> {
  return {
    variables,
    aggregates,
    timestamp,
    ...(fx && { fx }),
    ...(lookups.length > 0 && { lists: lookups }),
    ...(links && Object.keys(links).length > 0 && { links }),
  };
}
