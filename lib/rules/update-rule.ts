import { prisma } from "@/lib/db";
import { clientListNames } from "@/lib/lists/list-references";
import { RuleImportError, validateRuleDefinition } from "@/lib/rules/validate-rule";
import { writeRuleVersion, type TWrittenVersion } from "@/lib/rules/write-rule-version";

/**
 * Saves an edited definition of an existing rule as its next version (dashboard edits).
 * The id in the path wins over any id in the definition. Null when the rule does not exist.
 */
export async function updateRule({
  clientId,
  ruleId,
  definition,
  actor,
}: {
  clientId: string;
  ruleId: string;
  definition: unknown;
  actor?: string;
}): Promise<TWrittenVersion | null> {
  const [rule, client] = await Promise.all([
    prisma.rule.findUnique({ where: { clientId_ruleId: { clientId, ruleId } }, select: { id: true } }),
    prisma.client.findUnique({ where: { id: clientId }, select: { actions: true } }),
  ]);
  if (!rule || !client) return null;
  const raw =
    typeof definition === "object" && definition !== null ? { ...definition, id: ruleId } : definition;
  const result = validateRuleDefinition(raw, client.actions, await clientListNames(clientId));
  if (!result.definition) throw new RuleImportError(result.errors.map((message) => ({ ruleId, message })));
  const valid = result.definition;
  return prisma.$transaction((tx) => writeRuleVersion(tx, { clientId, definition: valid, actor }));
}
