import { RECOMMENDED_ACTIONS } from "@/lib/clients/schemas";
import { listReferenceErrors } from "@/lib/lists/list-references";
import { validateRuleExpressions } from "@/lib/rules/cel";
import { ZRuleDefinition, type TRuleDefinition } from "@/lib/rules/schemas";

export type TRuleError = { ruleId: string; message: string };

/** Thrown when an import or edit contains invalid rules; nothing was written. */
export class RuleImportError extends Error {
  constructor(readonly errors: TRuleError[]) {
    super(`Invalid rules: ${errors.map((e) => `${e.ruleId}: ${e.message}`).join("; ")}`);
    this.name = "RuleImportError";
  }
}

/** Label for error messages: the rule's id when it has one, else its position in the file. */
export function ruleLabel(raw: unknown, index: number): string {
  const id = typeof raw === "object" && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === "string" && id.trim() !== "" ? id : `#${index}`;
}

/**
 * Validates one rule definition: shape, CEL expressions for its subject, aggregate references,
 * a recommendedAction among the client's enabled actions, and (given the client's list names) the
 * lists its condition reads.
 */
export function validateRuleDefinition(
  raw: unknown,
  enabledActions: readonly string[],
  listNames?: ReadonlySet<string>,
): { definition: TRuleDefinition; errors: [] } | { definition: null; errors: string[] } {
  const parsed = ZRuleDefinition.safeParse(raw);
  if (!parsed.success) {
    return {
      definition: null,
      errors: parsed.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "rule"}: ${i.message}`),
    };
  }
  const definition = parsed.data;
  // a client always has at least one action; an empty list is read as the default (all of them)
  if (enabledActions.length === 0) enabledActions = RECOMMENDED_ACTIONS;
  const errors = validateRuleExpressions(definition);
  if (listNames) errors.push(...listReferenceErrors(definition, listNames));
  if (!enabledActions.includes(definition.recommendedAction)) {
    errors.push(
      `recommendedAction: ${definition.recommendedAction} is not enabled for this client (enabled: ${enabledActions.join(", ")})`,
    );
  }
  return errors.length ? { definition: null, errors } : { definition, errors: [] };
}
