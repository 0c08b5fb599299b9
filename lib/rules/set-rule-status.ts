import { prisma } from "@/lib/db";
import { RULE_STATUSES, type TRuleStatus } from "@/lib/rules/schemas";
import { RuleImportError } from "@/lib/rules/validate-rule";
import { versionToDefinition, writeRuleVersion, type TWrittenVersion } from "@/lib/rules/write-rule-version";

/** A status change is an edit like any other: a new version copying the current definition. */
export async function setRuleStatus({
  clientId,
  ruleId,
  status,
  actor,
}: {
  clientId: string;
  ruleId: string;
  status: TRuleStatus;
  actor?: string;
}): Promise<TWrittenVersion | null> {
  if (!RULE_STATUSES.includes(status)) {
    throw new RuleImportError([{ ruleId, message: `status: expected one of ${RULE_STATUSES.join(", ")}` }]);
  }
  return prisma.$transaction(async (tx) => {
    const rule = await tx.rule.findUnique({
      where: { clientId_ruleId: { clientId, ruleId } },
      select: { versions: { orderBy: { version: "desc" }, take: 1 } },
    });
    const current = rule?.versions[0];
    if (!current) return null;
    const definition = { ...versionToDefinition(ruleId, current), status };
    return writeRuleVersion(tx, { clientId, definition, actor });
  });
}
