// CEL for rule conditions and aggregate filters (@marcbachmann/cel-js).
//
// Choices that rule authors see (also in the API reference):
// - Every variable is a CEL map holding the JSON of the request or stored record. JSON numbers are
//   doubles and CEL literals like 1000 are ints; cel-js compares them across types, and mixed
//   arithmetic (double + int, ...) is registered here so `transaction.amount * 2 > 1000` works too.
// - A variable that does not apply to a screening (no merchant on the transaction) is bound to an
//   empty map: `has(merchant.id)` is false, and `has(merchant)` (not valid CEL on its own) is
//   accepted and rewritten to `size(merchant) > 0`.
// - Optional chaining is on: `merchant.?status.orValue("") == "blocked"` never errors.
import { Environment, type ASTNode } from "@marcbachmann/cel-js";
import type { TAggregateOver, TRuleDefinition, TRuleSubject } from "@/lib/rules/schemas";
import { registerListFunctions } from "@/lib/lists/in-list";
import { sanctionsScore } from "@/lib/sanctions/score-context";

/** Variables a condition may use, per rule subject (`aggregates` is always available). */
export const SUBJECT_VARIABLES: Record<TRuleSubject, readonly string[]> = {
  transaction: ["transaction", "user", "merchant"],
  event: ["event", "user", "merchant"],
  user: ["user"],
  merchant: ["merchant"],
  paymentInstrument: ["paymentInstrument", "user"],
};

export class CelCompileError extends Error {}

type TCelEnvironment = InstanceType<typeof Environment>;

function createEnvironment(variables: readonly string[]): TCelEnvironment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
  for (const name of variables) env.registerVariable(name, "map");
  const arithmetic: Record<string, (a: number, b: number) => number> = {
    "+": (a, b) => a + b,
    "-": (a, b) => a - b,
    "*": (a, b) => a * b,
    "/": (a, b) => a / b,
  };
  for (const [op, fn] of Object.entries(arithmetic)) {
    env.registerOperator(`double ${op} int`, (a: number, b: bigint) => fn(a, Number(b)));
    env.registerOperator(`int ${op} double`, (a: bigint, b: number) => fn(Number(a), b));
  }
  // Registers both operand orders and != too; ordering across int and double is built in.
  env.registerOperator("int == double", (a: bigint, b: number) => Number(a) === b);
  return env;
}

const conditionEnvironments = new Map<TRuleSubject, TCelEnvironment>();
const whereEnvironments = new Map<TAggregateOver, TCelEnvironment>();

function conditionEnvironment(subject: TRuleSubject): TCelEnvironment {
  let env = conditionEnvironments.get(subject);
  if (!env) {
    env = createEnvironment([...SUBJECT_VARIABLES[subject], "aggregates"]);
    // Sanctions screening (lib/sanctions): best match of a full name against the loaded lists, 0..1.
    env.registerFunction("sanctionsScore(string): double", (name: string) => sanctionsScore(name));
    env.registerFunction("sanctionsScore(string, string): double", (name: string, birthDate: string) =>
      sanctionsScore(name, birthDate),
    );
    // Client lists (lib/lists): inList("NAME", value), bound per screening like sanctionsScore.
    registerListFunctions(env);
    conditionEnvironments.set(subject, env);
  }
  return env;
}

function whereEnvironment(over: TAggregateOver): TCelEnvironment {
  let env = whereEnvironments.get(over);
  if (!env) {
    env = createEnvironment([over]);
    whereEnvironments.set(over, env);
  }
  return env;
}

type TAnyNode = { op: string; args: unknown; range: { start: number; end: number } };

function isNode(value: unknown): value is TAnyNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value;
}

function walk(node: unknown, visit: (node: TAnyNode) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!isNode(node)) return;
  visit(node);
  if (typeof node.args === "object" && node.args !== null) walk(node.args, visit);
}

/** `has(user)` → `(size(user) > 0)` for root variables, so absence of a whole record is testable. */
function rewriteBareHas(source: string, ast: ASTNode, variables: readonly string[]): string {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  walk(ast, (node) => {
    if (node.op !== "call" || !Array.isArray(node.args) || node.args[0] !== "has") return;
    const callArgs = node.args[1] as unknown[];
    const only = callArgs[0];
    if (
      callArgs.length === 1 &&
      isNode(only) &&
      only.op === "id" &&
      variables.includes(only.args as string)
    ) {
      edits.push({
        start: node.range.start,
        end: node.range.end,
        text: `(size(${only.args as string}) > 0)`,
      });
    }
  });
  let out = source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

export type TCompiledExpression = {
  source: string;
  ast: ASTNode;
  evaluate: (variables: Record<string, unknown>) => unknown;
};

function firstLine(message: string): string {
  return message.split("\n")[0]!.trim();
}

function compile(env: TCelEnvironment, source: string, variables: readonly string[]): TCompiledExpression {
  let parsed: ReturnType<TCelEnvironment["parse"]>;
  try {
    parsed = env.parse(source);
    const rewritten = rewriteBareHas(source, parsed.ast, variables);
    if (rewritten !== source) parsed = env.parse(rewritten);
  } catch (err) {
    throw new CelCompileError(`Syntax error: ${firstLine((err as Error).message)}`);
  }
  const check = parsed.check();
  if (!check.valid) throw new CelCompileError(firstLine(check.error?.message ?? "Invalid expression"));
  if (check.type !== "bool" && check.type !== "dyn") {
    throw new CelCompileError(`Expression must be a bool, not ${check.type}`);
  }
  const program = parsed;
  return { source, ast: parsed.ast, evaluate: (vars) => program(vars) as unknown };
}

/** Names used as `aggregates.X` / `aggregates["X"]`; a dynamic key is reported as null. */
export function referencedAggregates(ast: ASTNode): Array<string | null> {
  const names: Array<string | null> = [];
  walk(ast, (node) => {
    if (!Array.isArray(node.args)) return;
    const [target, key] = node.args as [unknown, unknown];
    if (!isNode(target) || target.op !== "id" || target.args !== "aggregates") return;
    if (node.op === "." || node.op === ".?") names.push(key as string);
    else if (node.op === "[]" || node.op === "[?]") {
      names.push(isNode(key) && key.op === "value" && typeof key.args === "string" ? key.args : null);
    }
  });
  return names;
}

export function compileCondition(subject: TRuleSubject, source: string): TCompiledExpression {
  return compile(conditionEnvironment(subject), source, SUBJECT_VARIABLES[subject]);
}

export function compileWhere(over: TAggregateOver, source: string): TCompiledExpression {
  return compile(whereEnvironment(over), source, [over]);
}

/** Every problem with a rule's expressions, in words an operator can act on; empty when valid. */
export function validateRuleExpressions(rule: TRuleDefinition): string[] {
  const errors: string[] = [];
  const defined = new Set(Object.keys(rule.aggregates ?? {}));
  try {
    const condition = compileCondition(rule.subject, rule.condition);
    for (const name of referencedAggregates(condition.ast)) {
      if (name === null) errors.push("condition: aggregates must be accessed by name (aggregates.name)");
      else if (!defined.has(name)) errors.push(`condition: aggregates.${name} is not defined by the rule`);
    }
  } catch (err) {
    errors.push(`condition: ${(err as Error).message}${variableHint(err, rule.subject)}`);
  }
  for (const [name, aggregate] of Object.entries(rule.aggregates ?? {})) {
    if (!aggregate.where) continue;
    try {
      compileWhere(aggregate.over, aggregate.where);
    } catch (err) {
      errors.push(`aggregates.${name}.where: ${(err as Error).message}`);
    }
  }
  return errors;
}

function variableHint(err: unknown, subject: TRuleSubject): string {
  if (!(err instanceof Error) || !err.message.startsWith("Unknown variable")) return "";
  return ` (a ${subject} rule may use ${[...SUBJECT_VARIABLES[subject], "aggregates"].join(", ")})`;
}

export type TCompiledRule = {
  condition: TCompiledExpression;
  wheres: Record<string, TCompiledExpression>;
};

// Rule versions are immutable, so a compiled version is valid forever; the cap only bounds memory.
const compiledByVersion = new Map<string, TCompiledRule>();
const MAX_CACHED_VERSIONS = 5_000;

type TCompilableVersion = {
  id: string;
  subject: string;
  condition: string;
  aggregates: Record<string, { over: TAggregateOver; where?: string }>;
};

export function compiledRuleVersion(version: TCompilableVersion): TCompiledRule {
  const cached = compiledByVersion.get(version.id);
  if (cached) return cached;
  const wheres: Record<string, TCompiledExpression> = {};
  for (const [name, aggregate] of Object.entries(version.aggregates)) {
    if (aggregate.where) wheres[name] = compileWhere(aggregate.over, aggregate.where);
  }
  const compiled = {
    condition: compileCondition(version.subject as TRuleSubject, version.condition),
    wheres,
  };
  if (compiledByVersion.size >= MAX_CACHED_VERSIONS) compiledByVersion.clear();
  compiledByVersion.set(version.id, compiled);
  return compiled;
}

/**
 * Binds every declared variable (absent ones to an empty map) and evaluates the condition.
 * Throws on an evaluation error or a non-bool result; the caller records it as the rule's error.
 */
export function evaluateCondition(
  subject: TRuleSubject,
  compiled: TCompiledExpression,
  variables: Record<string, unknown>,
  aggregates: Record<string, number | null>,
): boolean {
  const context: Record<string, unknown> = { aggregates };
  for (const name of SUBJECT_VARIABLES[subject]) context[name] = variables[name] ?? {};
  const result = compiled.evaluate(context);
  if (typeof result !== "boolean") throw new Error(`Condition returned ${typeof result}, expected a bool`);
  return result;
}

/** A where filter on one history row; an evaluation error counts as "does not match", as in SQL. */
export function matchesWhere(over: TAggregateOver, compiled: TCompiledExpression, row: unknown): boolean {
  try {
    return compiled.evaluate({ [over]: row }) === true;
  } catch {
    return false;
  }
}
