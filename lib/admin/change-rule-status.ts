import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { writeAudit } from "@/lib/admin/audit";
import { enabledActions } from "@/lib/admin/get-rule-detail";
import { assertMayPublishRule, assertMayWriteRule } from "@/lib/admin/rule-permissions";
import type { TRuleStatus } from "@/lib/rules/schemas";
import {
  lockRule,
  OFF_STATUSES,
  publishRuleVersion,
  setRuleStatus,
  type TRuleStatusChange,
} from "@/lib/rules/set-rule-status";

/**
 * Publishes a version: it becomes the live one in `status` (active, dry-run or muted) in one step,
 * with the publisher's change note, audited in the same transaction.
 */
export async function publishRule(
  user: TSessionUser,
  {
    ruleId,
    version,
    status,
    note,
  }: { ruleId: string; version: number; status: TRuleStatus; note?: string | null },
): Promise<TRuleStatusChange> {
  const clientId = user.clientId;
  return prisma.$transaction(async (tx) => {
    const rule = await lockRule(tx, clientId, ruleId);
    const client = await tx.client.findUniqueOrThrow({ where: { id: clientId }, select: { actions: true } });
    if (!rule) throw notFound("/ruleId", "Rule not found");
    assertMayPublishRule(user);
    const change = await publishRuleVersion(tx, {
      clientId,
      ruleId,
      version,
      status,
      enabledActions: enabledActions(client.actions),
    });
    if (!change) throw notFound("/version", "Rule version not found");
    // the note lives with the version (its history shows it) and in the audit trail
    await tx.ruleVersion.updateMany({
      where: { ruleRef: change.ruleRef, version },
      data: { publishNote: note ?? null, publishedAt: new Date(), publishedBy: user.email },
    });
    await writeAudit(tx, user, {
      action: "rule.published",
      entityType: "rule",
      entityId: ruleId,
      details: { from: change.from, to: change.to, ...(note && { note }) },
    });
    return change;
  });
}

/**
 * Changes the live version's status without changing the version: switching the rule off
 * (inactive, archived; the dashboard asks for confirmation) or on again, or between active,
 * dry-run and muted. Audited in the same transaction.
 */
export async function changeRuleStatus(
  user: TSessionUser,
  { ruleId, status }: { ruleId: string; status: TRuleStatus },
): Promise<TRuleStatusChange> {
  const clientId = user.clientId;
  return prisma.$transaction(async (tx) => {
    const rule = await lockRule(tx, clientId, ruleId);
    if (!rule) throw notFound("/ruleId", "Rule not found");
    assertMayWriteRule(user, { from: rule.status, to: status });
    const change = await setRuleStatus(tx, { clientId, ruleId, status });
    if (!change) throw notFound("/ruleId", "Rule not found");
    await writeAudit(tx, user, {
      action: OFF_STATUSES.includes(status) ? "rule.switched_off" : "rule.status_changed",
      entityType: "rule",
      entityId: ruleId,
      details: { from: change.from, to: change.to },
    });
    return change;
  });
}
