// The Prisma rule run that the raw-SQL screenings replaced (lib/screening/decide.ts and
// decision-write.ts): reads what it needs through `tx`, evaluates, and stores the decision. Kept only for
// the oracle screenings and the rule-engine tests. Production code never imports tests/oracle.
import type { TClientContext } from "@/lib/clients/client-context";
import { pgPool, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TFxConversion } from "@/lib/fx/rates";
import { evaluateWithLists, liveListSource } from "@/lib/lists/in-list";
import type { ListIndex } from "@/lib/lists/list-index";
import { readScreeningLinks, withLinks } from "@/lib/links/screening-links";
import { currentRequestId } from "@/lib/ops/request-context";
import { prepareSanctionsScreening, sanctionsWrap } from "@/lib/sanctions/prepare-sanctions-screening";
import { computeAggregates } from "@/lib/screening/aggregates";
import { storedEntity, storedMerchant } from "@/lib/screening/assessment";
import type { TLoadedRule } from "@/lib/screening/evaluate-rules";
import { cachedLists, screeningConfig } from "@/lib/screening/screening-config";
import {
  decisionInput,
  evaluateRules,
  planAggregates,
  type TFiredRule,
  type TSubject,
} from "@/lib/screening/run-rules";
import type { TEvaluatedRule, TTriggeredRule } from "@/lib/screening/evaluate-rules";

export type TRunRulesResult = {
  riskLevel: string;
  recommendedAction: string;
  triggered: TTriggeredRule[];
  firedActive: TFiredRule[];
  decisionId: string;
  /** Every evaluated rule with its status and outcome (dry-run and muted hits included). */
  evaluated: TEvaluatedRule[];
};

/** The client's evaluated rules for a subject, from the cache (one statement when it is stale). */
export async function cachedRules(
  client: TClientContext,
  subject: TSubject,
): Promise<readonly TLoadedRule[]> {
  return (await screeningConfig(pgPool(), client)).rules.get(subject) ?? [];
}

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

/**
 * The CEL variables of a screening: the subject under its own name (`{ transaction: body }`) plus the
 * stored user and merchant it refers to, left out (so `has()` is false) when not stored.
 */
export async function ruleVariables(
  tx: Tx,
  {
    clientId,
    userId,
    merchantId,
    subject,
  }: {
    clientId: string;
    userId?: string | null;
    merchantId?: string | null;
    subject: Record<string, unknown>;
  },
): Promise<Record<string, unknown>> {
  const [user, merchant] = await Promise.all([
    userId ? tx.user.findUnique({ where: { clientId_id: { clientId, id: userId } } }) : null,
    merchantId ? tx.merchant.findUnique({ where: { clientId_id: { clientId, id: merchantId } } }) : null,
  ]);
  const variables: Record<string, unknown> = { ...subject };
  const storedUser = storedEntity(user);
  const merchantVariable = storedMerchant(merchant);
  if (storedUser) variables.user = storedUser;
  if (merchantVariable) variables.merchant = merchantVariable;
  return variables;
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
    /** The client's rules for the subject from the in-memory cache (lib/screening/screening-config.ts); read here when absent. */
    rules?: readonly TLoadedRule[];
    /** A transaction's conversion to the base currency (lib/fx), recorded on the decision. */
    fx?: TFxConversion;
    /** The lists inList reads; by default the client's cached configuration's (lib/screening/screening-config.ts). */
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
