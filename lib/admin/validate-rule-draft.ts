import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { clientListNames } from "@/lib/lists/list-references";
import { validateRuleDefinition } from "@/lib/rules/validate-rule";

export type TFieldError = { field: string; message: string };

/** Splits the engine's `<field>: <message>` lines so the editor can show each next to its field. */
export function fieldErrors(errors: readonly string[]): TFieldError[] {
  return errors.map((line) => {
    const at = line.indexOf(": ");
    return at > 0
      ? { field: line.slice(0, at), message: line.slice(at + 2) }
      : { field: "rule", message: line };
  });
}

/** The rule engine's own validation of a definition being edited, for validation as you type. */
export async function validateRuleDraft(
  user: TSessionUser,
  { definition }: { definition: Record<string, unknown> },
): Promise<{ valid: boolean; errors: TFieldError[] }> {
  const client = await prisma.client.findUniqueOrThrow({
    where: { id: user.clientId },
    select: { actions: true },
  });
  // the id is not the author's concern while typing a new rule
  const id = typeof definition.id === "string" && definition.id.trim() ? definition.id : "draft";
  const result = validateRuleDefinition(
    { ...definition, id },
    client.actions,
    await clientListNames(user.clientId),
  );
  return { valid: result.definition !== null, errors: fieldErrors(result.errors) };
}
