import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { clientListNames } from "@/lib/lists/list-references";
import type { TRuleProblem } from "@/lib/rules/cel";
import { validateRuleDefinition } from "@/lib/rules/validate-rule";

/** A problem shown next to its field in the editor; `start`/`end` locate it in the expression. */
export type TFieldError = TRuleProblem;

/** The rule engine's own validation of a definition being edited, for validation as you type. */
export async function validateRuleDraft(
  user: TSessionUser,
  { definition }: { definition: Record<string, unknown> },
): Promise<{ valid: boolean; errors: TFieldError[] }> {
  const client = await prisma.client.findUniqueOrThrow({
    where: { id: user.clientId },
    select: { actions: true },
  });
  // the id is not the author's concern while typing a new rule, nor the status of a draft
  const id = typeof definition.id === "string" && definition.id.trim() ? definition.id : "draft";
  const result = validateRuleDefinition(
    { ...definition, id, status: "draft" },
    client.actions,
    await clientListNames(user.clientId),
  );
  return { valid: result.definition !== null, errors: result.problems };
}
