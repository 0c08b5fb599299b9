import type { Tx } from "@/lib/db";
import { distinctPairs } from "@/lib/rules/aggregate-cost";
import { EVALUATED_STATUSES, type TRuleDefinition, type TRuleStatus } from "@/lib/rules/schemas";

export type TWrittenVersion = {
  ruleId: string;
  ruleRef: string;
  versionId: string;
  version: number;
  /** The rule's status after the write (a draft leaves it as it was). */
  status: string;
  /** The version screening uses after the write; null when none is published. */
  liveVersion: number | null;
  /** Its exact countDistinct pairs: the caller registers them last in its transaction (registerDistinctPairs). */
  distinctPairs: Array<{ dim: number; field: number }>;
};

/**
 * Creates the rule on first sight, otherwise bumps its version; the increment takes the row lock,
 * so concurrent edits of one rule get distinct version numbers. The exact countDistinct pairs of the
 * version are answered (`distinctPairs`), for registerDistinctPairs at the end of the caller's transaction.
 *
 * `publish` makes the new version the live one with the definition's status (an import is a
 * deployment: docs/decisions.md §2, "re-importing an id creates a new version of that rule"). Without it
 * the version is a draft: stored with status `draft`, and the rule keeps its live version and
 * status, so saving a draft never changes what screens (a new rule starts as `draft`, not live).
 */
export async function writeRuleVersion(
  tx: Tx,
  {
    clientId,
    definition,
    actor,
    publish,
  }: { clientId: string; definition: TRuleDefinition; actor?: string; publish: boolean },
): Promise<TWrittenVersion> {
  const now = new Date();
  const status: TRuleStatus = publish ? definition.status : "draft";
  const rule = await tx.rule.upsert({
    where: { clientId_ruleId: { clientId, ruleId: definition.id } },
    create: {
      clientId,
      ruleId: definition.id,
      subject: definition.subject,
      status,
      currentVersion: 1,
      liveVersion: publish ? 1 : null,
      createdAt: now,
      updatedAt: now,
    },
    update: {
      ...(publish && { subject: definition.subject, status }),
      currentVersion: { increment: 1 },
      updatedAt: now,
    },
    select: { id: true, currentVersion: true, liveVersion: true, status: true },
  });
  let { liveVersion } = rule;
  if (publish && liveVersion !== rule.currentVersion) {
    liveVersion = rule.currentVersion;
    await tx.rule.update({ where: { id: rule.id }, data: { liveVersion } });
  }
  const version = await tx.ruleVersion.create({
    data: {
      clientId,
      ruleRef: rule.id,
      version: rule.currentVersion,
      name: definition.name,
      subject: definition.subject,
      status,
      riskLevel: definition.riskLevel,
      recommendedAction: definition.recommendedAction,
      reason: definition.reason,
      condition: definition.condition,
      aggregates: definition.aggregates ?? {},
      createdBy: actor ?? null,
      createdAt: now,
    },
    select: { id: true },
  });
  return {
    ruleId: definition.id,
    ruleRef: rule.id,
    versionId: version.id,
    version: rule.currentVersion,
    status: rule.status,
    liveVersion,
    distinctPairs: distinctPairs(definition.aggregates),
  };
}

/**
 * Registers the exact countDistinct pairs of the versions a transaction wrote (transaction_distinct_spec_add):
 * from then on their day values are kept (never removed). Every version a rule can ever screen with is
 * written by writeRuleVersion (a publish or status change makes a written version live), and its caller
 * calls this last, just before committing: the first registration of a pair locks "transactions" against
 * every client's writes until the commit, so nothing else may run in the transaction after it. A pair not
 * registered (a failed call) only means raw reads of its windows, never a wrong count.
 */
export async function registerDistinctPairs(
  tx: Tx,
  clientId: string,
  written: ReadonlyArray<Pick<TWrittenVersion, "distinctPairs">>,
): Promise<void> {
  const pairs = new Map(written.flatMap((w) => w.distinctPairs).map((p) => [`${p.dim}:${p.field}`, p]));
  for (const { dim, field } of pairs.values()) {
    await tx.$executeRaw`SELECT "transaction_distinct_spec_add"(${clientId}, ${dim}::smallint, ${field}::smallint)`;
  }
}

/** Whether a rule with this status and live version is evaluated by screenings. */
export function isScreening(rule: { status: string; liveVersion: number | null }): boolean {
  return rule.liveVersion !== null && EVALUATED_STATUSES.includes(rule.status as TRuleStatus);
}

type TVersionRow = {
  name: string;
  subject: string;
  status: string;
  riskLevel: string;
  recommendedAction: string;
  reason: string;
  condition: string;
  aggregates: unknown;
};

/** A stored version back in the import format. */
export function versionToDefinition(ruleId: string, v: TVersionRow): TRuleDefinition {
  const aggregates = (v.aggregates ?? {}) as NonNullable<TRuleDefinition["aggregates"]>;
  return {
    id: ruleId,
    name: v.name,
    subject: v.subject as TRuleDefinition["subject"],
    status: v.status as TRuleDefinition["status"],
    riskLevel: v.riskLevel as TRuleDefinition["riskLevel"],
    recommendedAction: v.recommendedAction,
    reason: v.reason,
    condition: v.condition,
    ...(Object.keys(aggregates).length ? { aggregates } : {}),
  };
}
