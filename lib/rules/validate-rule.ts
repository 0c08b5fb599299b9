import { RECOMMENDED_ACTIONS } from "@/lib/risk/risk-levels";
import { listReferenceErrors } from "@/lib/lists/list-references";
import { ruleProblems, type TRuleProblem } from "@/lib/rules/cel";
import { ZRuleDefinition, type TRuleDefinition } from "@/lib/rules/schemas";

export type TRuleError = { ruleId: string; message: string };

const ZRuleExpressions = ZRuleDefinition.pick({ subject: true, condition: true, aggregates: true });

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
):
  | { definition: TRuleDefinition; errors: []; problems: [] }
  | { definition: null; errors: string[]; problems: TRuleProblem[] } {
  const problems = definitionProblems(raw, enabledActions, listNames);
  if (problems.length === 0) return { definition: ZRuleDefinition.parse(raw), errors: [], problems: [] };
  return { definition: null, errors: problems.map((p) => `${p.field}: ${p.message}`), problems };
}

function definitionProblems(
  raw: unknown,
  enabledActions: readonly string[],
  listNames: ReadonlySet<string> | undefined,
): TRuleProblem[] {
  const parsed = ZRuleDefinition.safeParse(raw);
  if (!parsed.success) {
    // the expressions are still checked when their own fields are well-formed (an editor shows both)
    const expressions = ZRuleExpressions.safeParse(raw);
    const shape = parsed.error.issues.map((i) => ({
      field: i.path.length ? i.path.join(".") : "rule",
      // an empty required text reads as what it is, not as zod's "Too small: expected string ..."
      message:
        i.code === "too_small" && i.origin === "string" && Number(i.minimum) === 1 ? "Required" : i.message,
    }));
    return expressions.success ? [...shape, ...ruleProblems(expressions.data)] : shape;
  }
  const definition = parsed.data;
  // a client always has at least one action; an empty list is read as the default (all of them)
  if (enabledActions.length === 0) enabledActions = RECOMMENDED_ACTIONS;
  const problems = ruleProblems(definition);
  // the lists a condition reads must exist (lib/lists), like any compile error
  if (listNames && problems.length === 0)
    for (const error of listReferenceErrors(definition, listNames))
      problems.push({ field: "condition", message: error.replace(/^condition: /, "") });
  if (!enabledActions.includes(definition.recommendedAction)) {
    problems.push({
      field: "recommendedAction",
      message: `${definition.recommendedAction} is not enabled for this client (enabled: ${enabledActions.join(", ")})`,
    });
  }
  return problems;
}
