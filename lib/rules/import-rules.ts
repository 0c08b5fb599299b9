import { prisma } from "@/lib/db";
import { clientListNames } from "@/lib/lists/list-references";
import { ZRuleImport, type TRuleDefinition } from "@/lib/rules/schemas";
import {
  RuleImportError,
  ruleLabel,
  validateRuleDefinition,
  type TRuleError,
} from "@/lib/rules/validate-rule";
import { registerDistinctPairs, writeRuleVersion } from "@/lib/rules/write-rule-version";

export { RuleImportError } from "@/lib/rules/validate-rule";

/**
 * Imports rules all-or-nothing: any invalid rule imports nothing and every bad rule is named.
 * Each imported rule gets a new immutable version, also when identical to the current one,
 * so the version history records every import; it becomes the live version with the file's status
 * (docs/decisions.md §2). Drafts saved in the dashboard stay drafts.
 */
export async function importRules({
  clientId,
  rules,
  actor,
}: {
  clientId: string;
  rules: unknown;
  actor?: string;
}): Promise<{ imported: number }> {
  const envelope = ZRuleImport.safeParse(rules);
  if (!envelope.success) {
    throw new RuleImportError([
      { ruleId: "(file)", message: 'Expected an array of rules or { "rules": [...] }' },
    ]);
  }
  const items = Array.isArray(envelope.data) ? envelope.data : envelope.data.rules;
  const client = await prisma.client.findUnique({ where: { id: clientId }, select: { actions: true } });
  if (!client)
    throw new RuleImportError([{ ruleId: "(client)", message: `Client ${clientId} does not exist` }]);

  const listNames = await clientListNames(clientId);
  const errors: TRuleError[] = [];
  const definitions: TRuleDefinition[] = [];
  const seen = new Set<string>();
  items.forEach((raw, index) => {
    const label = ruleLabel(raw, index);
    const result = validateRuleDefinition(raw, client.actions, listNames);
    for (const message of result.errors) errors.push({ ruleId: label, message });
    if (!result.definition) return;
    if (seen.has(result.definition.id)) {
      errors.push({ ruleId: label, message: "id: appears more than once in this import" });
      return;
    }
    seen.add(result.definition.id);
    definitions.push(result.definition);
  });
  if (errors.length) throw new RuleImportError(errors);

  await prisma.$transaction(async (tx) => {
    const written = [];
    for (const definition of definitions)
      written.push(await writeRuleVersion(tx, { clientId, definition, actor, publish: true }));
    await registerDistinctPairs(tx, clientId, written);
  });
  return { imported: definitions.length };
}
