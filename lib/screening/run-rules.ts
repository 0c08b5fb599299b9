import { currentRequestId } from "@/lib/ops/request-context";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TFxConversion } from "@/lib/fx/rates";
import { evaluateWithLists, liveListSource, type TListLookup } from "@/lib/lists/in-list";
import type { ListIndex } from "@/lib/lists/list-index";
import { compiledRuleVersion } from "@/lib/rules/cel";
import type { TAggregateDefinition } from "@/lib/rules/schemas";
import { prepareSanctionsScreening, sanctionsWrap } from "@/lib/sanctions/prepare-sanctions-screening";
import {
  aggregateKey,
  computeAggregates,
  type TAggregateRequest,
  type TAggregateValue,
} from "@/lib/screening/aggregates";
import { cachedLists } from "@/lib/screening/hot/config";
import { readScreeningLinks, withLinks } from "@/lib/links/screening-links";
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
export type TRunRulesResult = {
  riskLevel: string;
  recommendedAction: string;
  triggered: TTriggeredRule[];
  firedActive: TFiredRule[];
  decisionId: string;
  /** Every evaluated rule with its status and outcome (dry-run and muted hits included). */
  evaluated: TEvaluatedRule[];
};

/** The client's evaluated rules (active, dry-run, muted) for a subject at their live versions: one query. */
async function loadRules(tx: Tx, clientId: string, subject: TSubject): Promise<TLoadedRule[]> {
  return tx.$queryRaw<TLoadedRule[]>(Prisma.sql`
    SELECT r."id" AS "ruleRef", r."ruleId", r."status", v."id" AS "versionId", v."version", v."name",
           v."riskLevel", v."recommendedAction", v."reason", v."condition", v."aggregates"
    FROM "rules" r
    JOIN "rule_versions" v ON v."ruleRef" = r."id" AND v."version" = r."liveVersion"
    WHERE r."clientId" = ${clientId} AND r."subject" = ${subject} AND r."status" IN ('active', 'dry-run', 'muted')
    ORDER BY r."ruleId"`);
}

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

// A rule's aggregates as (name, aggregateKey) pairs: the rules of the hot path are the cached
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

/**
 * Screens one record against the client's rules for its subject and stores the Decision in `tx`.
 * The screened transaction or event must already be written in `tx` (aggregates include it).
 * `variables` must be JSON values (timestamps as epoch ms): they are stored for replay.
 */
export async function runRules(
  tx: Tx,
  args: {
    clientId: string;
    subject: TSubject;
    subjectId: string;
    timestamp: number;
    variables: Record<string, unknown>;
    /** The client's rules for the subject from the in-memory cache (lib/screening/hot/config.ts); read here when absent. */
    rules?: readonly TLoadedRule[];
    /** A transaction's conversion to the base currency (lib/fx), recorded on the decision. */
    fx?: TFxConversion;
    /** The lists inList reads; by default the client's cached configuration's (lib/screening/hot/config.ts). */
    lists?: ReadonlyMap<string, ListIndex>;
  },
): Promise<TRunRulesResult> {
  const started = performance.now();
  const { clientId, subject, subjectId, timestamp, variables } = args;
  const rules = args.rules ?? (await loadRules(tx, clientId, subject));
  const plan = planAggregates(rules, subject);
  const values = await computeAggregates(tx, {
    clientId,
    subject,
    subjectId,
    timestamp,
    variables,
    aggregates: plan.requests,
  });
  // null unless a rule calls sanctionsScore; a triggered sanctions rule carries its matched entities
  const sanctions = await prepareSanctionsScreening(tx, {
    clientId,
    subject,
    subjectId,
    variables,
    conditions: rules.map((r) => r.condition),
  });
  const lists = args.lists ?? cachedLists(clientId) ?? new Map<string, ListIndex>();
  const links = await readScreeningLinks(tx, { clientId, subject, subjectId, variables, rules });
  const {
    result: { result, lookups },
    used,
  } = withLinks(links, sanctionsWrap(sanctions), (wrap) =>
    evaluateWithLists(liveListSource(lists), () =>
      evaluateRules(rules, subject, variables, values, plan.compileErrors, wrap),
    ),
  );
  const { riskLevel, recommendedAction, triggered, firedActive, evaluated, aggregatesByVersion } = result;

  const decision = await tx.decision.create({
    data: {
      clientId,
      subjectType: subject,
      subjectId,
      riskLevel,
      recommendedAction,
      evaluated: evaluated as unknown as Prisma.InputJsonValue,
      aggregates: aggregatesByVersion as Prisma.InputJsonValue,
      requestId: currentRequestId(),
      // everything CEL saw: replay needs nothing else
      input: decisionInput({
        variables,
        aggregates: aggregatesByVersion,
        timestamp,
        fx: args.fx,
        lookups,
        links: used,
      }) as Prisma.InputJsonValue,
      response: { riskLevel, recommendedAction, triggered } as unknown as Prisma.InputJsonValue,
      durationMs: performance.now() - started,
    },
    select: { id: true },
  });
  return { riskLevel, recommendedAction, triggered, firedActive, decisionId: decision.id, evaluated };
}
