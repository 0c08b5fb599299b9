import { prisma } from "@/lib/db";
import type { TRuleDefinition } from "@/lib/rules/schemas";
import { versionToDefinition } from "@/lib/rules/write-rule-version";

/** The client's rules at their current versions, in the import format (re-importable as is). */
export async function exportRules({ clientId }: { clientId: string }): Promise<{ rules: TRuleDefinition[] }> {
  const rules = await prisma.rule.findMany({
    where: { clientId },
    orderBy: { ruleId: "asc" },
    select: { ruleId: true, versions: { orderBy: { version: "desc" }, take: 1 } },
  });
  return {
    rules: rules.flatMap((rule) =>
      rule.versions[0] ? [versionToDefinition(rule.ruleId, rule.versions[0])] : [],
    ),
  };
}
