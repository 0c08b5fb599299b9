// A rule naming a list that does not exist is rejected like a compile error (docs/decisions.md §10).
import { prisma } from "@/lib/db";
import { listNamesIn, usesLists } from "@/lib/lists/in-list";
import { compileCondition } from "@/lib/rules/cel";
import type { TRuleDefinition } from "@/lib/rules/schemas";

/** Names of the client's lists, for rule validation. */
export async function clientListNames(clientId: string): Promise<Set<string>> {
  const rows = await prisma.list.findMany({ where: { clientId }, select: { name: true } });
  return new Set(rows.map((r) => r.name));
}

/** Problems with the lists a rule's condition reads; empty when every one exists. */
export function listReferenceErrors(rule: TRuleDefinition, listNames: ReadonlySet<string>): string[] {
  if (!usesLists(rule.condition)) return [];
  let names: Array<string | null>;
  try {
    names = listNamesIn(compileCondition(rule.subject, rule.condition).ast);
  } catch {
    return []; // the compile error is reported by validateRuleExpressions
  }
  const errors: string[] = [];
  for (const name of new Set(names)) {
    if (name === null)
      errors.push('condition: inList takes the list name as a quoted string (inList("name", value))');
    else if (!listNames.has(name)) {
      const known = [...listNames].sort();
      errors.push(
        `condition: list '${name}' does not exist` +
          (known.length ? ` (lists: ${known.slice(0, 20).join(", ")})` : " (this client has no lists)"),
      );
    }
  }
  return errors;
}
