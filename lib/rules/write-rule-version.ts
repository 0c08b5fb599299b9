import type { Tx } from "@/lib/db";
import type { TRuleDefinition } from "@/lib/rules/schemas";

export type TWrittenVersion = {
  ruleId: string;
  ruleRef: string;
  versionId: string;
  version: number;
  status: string;
};

/**
 * Creates the rule on first sight, otherwise bumps its version; the increment takes the row lock,
 * so concurrent edits of one rule get distinct version numbers.
 */
export async function writeRuleVersion(
  tx: Tx,
  { clientId, definition, actor }: { clientId: string; definition: TRuleDefinition; actor?: string },
): Promise<TWrittenVersion> {
  const now = new Date();
  const rule = await tx.rule.upsert({
    where: { clientId_ruleId: { clientId, ruleId: definition.id } },
    create: {
      clientId,
      ruleId: definition.id,
      subject: definition.subject,
      status: definition.status,
      currentVersion: 1,
      createdAt: now,
      updatedAt: now,
    },
    update: {
      subject: definition.subject,
      status: definition.status,
      currentVersion: { increment: 1 },
      updatedAt: now,
    },
    select: { id: true, currentVersion: true },
  });
  const version = await tx.ruleVersion.create({
    data: {
      clientId,
      ruleRef: rule.id,
      version: rule.currentVersion,
      name: definition.name,
      subject: definition.subject,
      status: definition.status,
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
    status: definition.status,
  };
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
