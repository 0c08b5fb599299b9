import type { Tx } from "@/lib/db";
import { EVALUATED_STATUSES, RULE_STATUSES, type TRuleStatus } from "@/lib/rules/schemas";
import { RuleImportError, validateRuleDefinition } from "@/lib/rules/validate-rule";
import { versionToDefinition } from "@/lib/rules/write-rule-version";

/** What a publish or a status change did, for the audit trail and the caller. */
export type TRuleStatusChange = {
  ruleId: string;
  ruleRef: string;
  from: { status: string; liveVersion: number | null };
  to: { status: string; liveVersion: number | null };
};

/** Statuses a live version can be published in. */
export const PUBLISH_STATUSES = EVALUATED_STATUSES;
/** Statuses that switch a rule off (its last live version is remembered for switching it on). */
export const OFF_STATUSES: readonly TRuleStatus[] = ["inactive", "archived"];

/** Reads the rule row FOR UPDATE: publishes and status changes of one rule are serialised. */
export async function lockRule(tx: Tx, clientId: string, ruleId: string) {
  const rows = await tx.$queryRaw<
    Array<{ id: string; status: string; liveVersion: number | null; currentVersion: number }>
  >`SELECT "id", "status", "liveVersion", "currentVersion" FROM "rules"
    WHERE "clientId" = ${clientId} AND "ruleId" = ${ruleId} FOR UPDATE`;
  return rows[0] ?? null;
}

/**
 * Makes one version of the rule the live one, in `status` (active, dry-run or muted), in one
 * statement: screenings before it use the previous live version, screenings after it this one.
 * The version is validated again (the client's actions may have changed since it was saved).
 * Null when the rule or version does not exist.
 */
export async function publishRuleVersion(
  tx: Tx,
  {
    clientId,
    ruleId,
    version,
    status,
    enabledActions,
  }: {
    clientId: string;
    ruleId: string;
    version: number;
    status: TRuleStatus;
    enabledActions: readonly string[];
  },
): Promise<TRuleStatusChange | null> {
  if (!PUBLISH_STATUSES.includes(status)) {
    throw new RuleImportError([
      { ruleId, message: `status: a version is published as ${PUBLISH_STATUSES.join(", ")}` },
    ]);
  }
  const rule = await lockRule(tx, clientId, ruleId);
  if (!rule) return null;
  const stored = await tx.ruleVersion.findUnique({
    where: { ruleRef_version: { ruleRef: rule.id, version } },
  });
  if (!stored) return null;
  const checked = validateRuleDefinition({ ...versionToDefinition(ruleId, stored), status }, enabledActions);
  if (!checked.definition) {
    throw new RuleImportError(checked.errors.map((message) => ({ ruleId, message })));
  }
  await tx.rule.update({
    where: { id: rule.id },
    data: { status, liveVersion: version, subject: stored.subject, updatedAt: new Date() },
  });
  return {
    ruleId,
    ruleRef: rule.id,
    from: { status: rule.status, liveVersion: rule.liveVersion },
    to: { status, liveVersion: version },
  };
}

/**
 * Changes the status of the rule's live version without changing the version: switching it off
 * (inactive, archived), or between active, dry-run and muted, or back on. Null when the rule does
 * not exist.
 */
export async function setRuleStatus(
  tx: Tx,
  { clientId, ruleId, status }: { clientId: string; ruleId: string; status: TRuleStatus },
): Promise<TRuleStatusChange | null> {
  if (!RULE_STATUSES.includes(status) || status === "draft") {
    throw new RuleImportError([
      {
        ruleId,
        message: `status: expected one of ${RULE_STATUSES.filter((s) => s !== "draft").join(", ")}`,
      },
    ]);
  }
  const rule = await lockRule(tx, clientId, ruleId);
  if (!rule) return null;
  if (rule.liveVersion === null && !OFF_STATUSES.includes(status)) {
    throw new RuleImportError([
      { ruleId, message: "status: the rule has no published version yet; publish a version first" },
    ]);
  }
  await tx.rule.update({ where: { id: rule.id }, data: { status, updatedAt: new Date() } });
  return {
    ruleId,
    ruleRef: rule.id,
    from: { status: rule.status, liveVersion: rule.liveVersion },
    to: { status, liveVersion: rule.liveVersion },
  };
}
