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
import type { Environment, ASTNode } from "@marcbachmann/cel-js";
import { boundedCache } from "@/lib/cache/bounded-cache";
import {
  OVER_DECLARATIONS,
  resolvePath as resolveDeclared,
  SUBJECT_DECLARATIONS,
  typeName,
} from "@/lib/rules/rule-types";
import type { TAggregateOver, TRuleDefinition, TRuleSubject } from "@/lib/rules/schemas";
import { registerListFunctions } from "@/lib/lists/in-list";
import { instrumentProgram, RuleBudgetError, withinBudget } from "@/lib/rules/evaluation-budget";
import { safetyProblems } from "@/lib/rules/rule-cost";
import {
  closest,
  newRuleEnvironment,
  position,
  typeCheck,
  type TExpressionProblem,
} from "@/lib/rules/type-check";
import { sanctionsScore } from "@/lib/sanctions/score-context";
import {
  LINK_SUBJECTS,
  LINKS,
  linkCalls,
  mentionsLinks,
  registerLinkFunctions,
} from "@/lib/links/link-signals";

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
  const env = newRuleEnvironment();
  for (const name of variables) env.registerVariable(name, "map");
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
    // User links (lib/links): links.count(kind[, window]), blockedCount(), fraudCount(), bound per screening
    if (LINK_SUBJECTS.includes(subject)) registerLinkFunctions(env);
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

/** The `has(user)` calls on a root variable (not valid CEL on its own): their source ranges. */
function bareHasCalls(
  ast: ASTNode,
  variables: readonly string[],
): Array<{ start: number; end: number; name: string }> {
  const calls: Array<{ start: number; end: number; name: string }> = [];
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
      calls.push({ start: node.range.start, end: node.range.end, name: only.args as string });
    }
  });
  return calls.sort((a, b) => b.start - a.start);
}

function replaceCalls(
  source: string,
  calls: Array<{ start: number; end: number; name: string }>,
  text: (call: { start: number; end: number; name: string }) => string,
): string {
  let out = source;
  for (const call of calls) out = out.slice(0, call.start) + text(call) + out.slice(call.end);
  return out;
}

/** `has(user)` → `(size(user) > 0)` for root variables, so absence of a whole record is testable. */
function rewriteBareHas(source: string, ast: ASTNode, variables: readonly string[]): string {
  return replaceCalls(source, bareHasCalls(ast, variables), (c) => `(size(${c.name}) > 0)`);
}

/** For the type checker: `has(user)` as a bool of the same length, so every position holds. */
function padBareHas(source: string, ast: ASTNode, variables: readonly string[]): string {
  return replaceCalls(source, bareHasCalls(ast, variables), (c) => "true".padEnd(c.end - c.start));
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
  // a step budget and linear-time `matches` (lib/rules/evaluation-budget.ts)
  instrumentProgram(parsed.ast);
  return { source, ast: parsed.ast, evaluate: (vars) => withinBudget(() => program(vars) as unknown) };
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

/** One problem of a rule, at its field (`condition`, `aggregates.x.where`, ...), with the source range when known. */
export type TRuleProblem = { field: string; message: string; start?: number; end?: number };

type TCheckSpec = Parameters<typeof typeCheck>[1];

/** Parse and type check; positions are printed `line:column` before the message. */
function expressionProblems(field: string, source: string, spec: TCheckSpec): TRuleProblem[] {
  let typed: ReturnType<typeof typeCheck>;
  try {
    typed = typeCheck(source, spec);
  } catch (err) {
    return [{ field, message: `Syntax error: ${firstLine((err as Error).message)}` }];
  }
  if (typed.problems.length) {
    return typed.problems.map((p: TExpressionProblem) => ({
      field,
      message: `${position(source, p.start)}: ${p.message}`,
      start: p.start,
      end: p.end,
    }));
  }
  if (typed.type !== "bool" && typed.type !== "dyn") {
    return [{ field, message: `Expression must be a bool, not ${typed.type}` }];
  }
  return [];
}

const NUMERIC_FUNCTIONS = new Set(["sum", "avg", "min", "max"]);

/** An aggregate's groupBy or field: a declared path of the history row it reads. */
function aggregatePathProblem(
  field: string,
  over: TAggregateOver,
  path: string,
  numeric: boolean,
): TRuleProblem | null {
  const root = OVER_DECLARATIONS[over][over]!;
  const segments = path.split(".");
  for (let i = 0; i < segments.length; i++) {
    const parent = resolveDeclared(root, segments.slice(0, i));
    if (parent?.kind !== "object") break;
    const key = segments[i]!;
    if (!(key in parent.fields)) {
      const suggestion = closest(key, Object.keys(parent.fields));
      return {
        field,
        message: `unknown field ${over}.${segments.slice(0, i + 1).join(".")}${suggestion ? `; did you mean ${suggestion}?` : ""}`,
      };
    }
  }
  const type = resolveDeclared(root, segments);
  if (numeric && type && type.kind !== "double" && type.kind !== "dyn") {
    return { field, message: `${over}.${path} is a ${typeName(type)}; sum, avg, min and max need a number` };
  }
  return null;
}

/**
 * Every problem with a rule's expressions, checked against the declared fields of its subject
 * (lib/rules/rule-types.ts): syntax, unknown variables and fields, type mismatches, function
 * signatures, aggregates the rule does not define, a condition that is not a bool.
 */
export function ruleProblems(
  rule: Pick<TRuleDefinition, "subject" | "condition" | "aggregates">,
): TRuleProblem[] {
  const aggregates = rule.aggregates ?? {};
  const problems = expressionProblems("condition", rule.condition, {
    key: `subject:${rule.subject}`,
    declarations: SUBJECT_DECLARATIONS[rule.subject],
    aggregates: Object.keys(aggregates),
    rewrite: (source, ast) => padBareHas(source, ast, SUBJECT_VARIABLES[rule.subject]),
  });
  // parsed, not checked, here: functions such as inList are registered at run time by their owners
  if (problems.length === 0) {
    const ast = conditionEnvironment(rule.subject).parse(rule.condition).ast;
    if (referencedAggregates(ast).includes(null))
      problems.push({ field: "condition", message: "aggregates must be accessed by name (aggregates.name)" });
    // bounded work and linear-time regular expressions (lib/rules/rule-cost.ts)
    problems.push(...safetyProblems("condition", rule.condition, ast));
  }
  if (mentionsLinks(rule.condition)) problems.push(...linkProblems(rule.subject, rule.condition));
  for (const [name, aggregate] of Object.entries(aggregates)) {
    const groupBy = aggregatePathProblem(
      `aggregates.${name}.groupBy`,
      aggregate.over,
      aggregate.groupBy,
      false,
    );
    if (groupBy) problems.push(groupBy);
    if (aggregate.field) {
      const numeric = NUMERIC_FUNCTIONS.has(aggregate.function);
      const field = aggregatePathProblem(
        `aggregates.${name}.field`,
        aggregate.over,
        aggregate.field,
        numeric,
      );
      if (field) problems.push(field);
    }
    if (!aggregate.where) continue;
    const whereField = `aggregates.${name}.where`;
    const whereProblems = expressionProblems(whereField, aggregate.where, {
      key: `over:${aggregate.over}`,
      declarations: OVER_DECLARATIONS[aggregate.over],
      aggregates: null,
      rewrite: (source, ast) => padBareHas(source, ast, [aggregate.over]),
    });
    if (whereProblems.length === 0) {
      const ast = whereEnvironment(aggregate.over).parse(aggregate.where).ast;
      whereProblems.push(...safetyProblems(whereField, aggregate.where, ast));
    }
    problems.push(...whereProblems);
  }
  return problems;
}

/** links.* needs a user, and literal, known kinds and windows (the screening reads them before evaluating). */
function linkProblems(subject: TRuleSubject, condition: string): TRuleProblem[] {
  let ast: ASTNode;
  try {
    ast = conditionEnvironment(subject).parse(condition).ast;
  } catch {
    return []; // reported as a syntax error already
  }
  const found = linkCalls(ast);
  const problems = found.problems;
  if (!LINK_SUBJECTS.includes(subject) && (found.calls.length > 0 || problems.length > 0)) {
    const at = problems[0] ?? { start: 0, end: condition.length };
    return [
      {
        field: "condition",
        message: `${position(condition, at.start)}: links.* is not available to ${subject} rules: a ${subject} has no user (transaction, user, event and paymentInstrument rules can use it)`,
        start: at.start,
        end: at.end,
      },
    ];
  }
  return problems.map((p) => ({
    field: "condition",
    message: `${position(condition, p.start)}: ${p.message}`,
    start: p.start,
    end: p.end,
  }));
}

/** Every problem with a rule's expressions as `<field>: <message>` lines; empty when valid. */
export function validateRuleExpressions(rule: TRuleDefinition): string[] {
  return ruleProblems(rule).map((p) => `${p.field}: ${p.message}`);
}

export type TCompiledRule = {
  condition: TCompiledExpression;
  wheres: Record<string, TCompiledExpression>;
};

// Rule versions are immutable, so a compiled version is valid forever; the cap only bounds memory.
const compiledByVersion = boundedCache<TCompiledRule>(5_000);

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
  if (LINK_SUBJECTS.includes(subject)) context.links = LINKS;
  const result = compiled.evaluate(context);
  if (typeof result !== "boolean") throw new Error(`Condition returned ${typeof result}, expected a bool`);
  return result;
}

/**
 * A where filter on one history row; an evaluation error counts as "does not match", as in SQL, but
 * a spent budget (shared by the rows of a window when the caller wraps them in withinBudget) throws.
 */
export function matchesWhere(over: TAggregateOver, compiled: TCompiledExpression, row: unknown): boolean {
  try {
    return compiled.evaluate({ [over]: row }) === true;
  } catch (err) {
    if (err instanceof RuleBudgetError) throw err;
    return false;
  }
}
