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
};

/**
 * Creates the rule on first sight, otherwise bumps its version; the increment takes the row lock,
 * so concurrent edits of one rule get distinct version numbers. An exact countDistinct of the version
 * registers its pair in transaction_distinct_specs in the same transaction (transaction_distinct_spec_add:
 * the first time, a lock of "transactions" held until the caller commits).
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
  // every version a rule can ever screen with is written here (a publish or status change makes a written
  // version live): its exact countDistinct aggregates get their day values from now on (never removed)
  for (const { dim, field } of distinctPairs(definition.aggregates)) {
    await tx.$executeRaw`SELECT "transaction_distinct_spec_add"(${clientId}, ${dim}::smallint, ${field}::smallint)`;
  }
  return {
    ruleId: definition.id,
    ruleRef: rule.id,
    versionId: version.id,
    version: rule.currentVersion,
    status: rule.status,
    liveVersion,
  };
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
