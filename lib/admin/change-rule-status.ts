import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import { writeAudit } from "@/lib/admin/audit";
import { assertMayWriteRule } from "@/lib/admin/rule-permissions";
import type { TRuleStatus } from "@/lib/rules/schemas";
import { versionToDefinition, writeRuleVersion, type TWrittenVersion } from "@/lib/rules/write-rule-version";

/** A status change (publishing is `active`) is a new version copying the current definition. */
export async function changeRuleStatus(
  user: TSessionUser,
  { ruleId, status }: { ruleId: string; status: TRuleStatus },
): Promise<TWrittenVersion> {
  const clientId = user.clientId;
  return prisma.$transaction(async (tx) => {
    const rule = await tx.rule.findUnique({
      where: { clientId_ruleId: { clientId, ruleId } },
      select: { status: true, versions: { orderBy: { version: "desc" }, take: 1 } },
    });
    const current = rule?.versions[0];
    if (!rule || !current) throw notFound("/ruleId", "Rule not found");
    assertMayWriteRule(user, { from: rule.status, to: status });
    const definition = { ...versionToDefinition(ruleId, current), status };
    const written = await writeRuleVersion(tx, { clientId, definition, actor: user.email });
    await writeAudit(tx, user, {
      action: status === "active" ? "rule.published" : "rule.status_changed",
      entityType: "rule",
      entityId: ruleId,
      details: { from: rule.status, to: status, version: written.version },
    });
    return written;
  });
}
