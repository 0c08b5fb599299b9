import { prisma } from "@/lib/db";
import type { TRuleDefinition, TRuleStatus } from "@/lib/rules/schemas";
import { shownVersions } from "@/lib/rules/shown-versions";
import { versionToDefinition } from "@/lib/rules/write-rule-version";

/**
 * The client's rules as they screen, in the import format (re-importable as is): each rule's live
 * version with the rule's status; a rule never published exports its newest draft.
 */
export async function exportRules({ clientId }: { clientId: string }): Promise<{ rules: TRuleDefinition[] }> {
  const rules = await prisma.rule.findMany({
    where: { clientId },
    orderBy: { ruleId: "asc" },
    select: { id: true, ruleId: true, status: true, liveVersion: true, currentVersion: true },
  });
  const versions = await shownVersions(clientId, rules);
  return {
    rules: rules.flatMap((rule) => {
      const version = versions.get(rule.id);
      if (!version) return [];
      return [{ ...versionToDefinition(rule.ruleId, version), status: rule.status as TRuleStatus }];
    }),
  };
}
