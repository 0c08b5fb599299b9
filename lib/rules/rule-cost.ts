// A static upper bound on the work one evaluation of a rule expression can do, read from its AST.
//
// CEL has no loops or recursion: the only work that grows faster than the expression's own length
// comes from the comprehension macros (all, exists, exists_one, map, filter), which evaluate their
// body once per element, nested as deep as the author likes. So the bound is the number of AST nodes
// evaluated, with every comprehension multiplying its body by the size of the list it walks. The size
// of a literal list is known; a list or map read from the request or a stored record is not, and is
// assumed to hold ASSUMED_COLLECTION_SIZE elements (requests hold a handful: recipients, documents,
// payment methods). Data larger than the assumption is stopped by the runtime budget
// (lib/rules/evaluation-budget.ts), not by this bound.
import type { ASTNode } from "@marcbachmann/cel-js";
import { patternProblem } from "@/lib/rules/re2-matches";
import { position } from "@/lib/rules/type-check";

/** The most a condition or a where filter may cost, in estimated evaluation steps. */
export const RULE_COST_LIMIT = 100_000;
/** Elements assumed for a list or map whose size is not written in the rule. */
export const ASSUMED_COLLECTION_SIZE = 100;

const MACROS = new Set(["all", "exists", "exists_one", "map", "filter"]);

// Calls that do more than one step's work, in steps: a regular expression scan (linear, RE2), a
// sanctions search over the loaded lists, list lookups and string splitting/joining.
const CALL_WEIGHT: Record<string, number> = {
  matches: 20,
  sanctionsScore: 200,
  inList: 5,
  split: 10,
  join: 10,
  contains: 5,
  indexOf: 5,
  lastIndexOf: 5,
  replace: 10,
};

/** `size`: elements of the value when it is a list or map; `element`: the size of those elements. */
type TEstimate = { cost: number; size: number; element: number };

type TNode = { op: string; args: unknown };
type TScope = ReadonlyMap<string, { size: number; element: number }>;

function isNode(value: unknown): value is TNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value;
}

const unknownSize = (cost: number): TEstimate => ({
  cost,
  size: ASSUMED_COLLECTION_SIZE,
  element: ASSUMED_COLLECTION_SIZE,
});

function nodes(value: unknown): TNode[] {
  return Array.isArray(value) ? value.filter(isNode) : isNode(value) ? [value] : [];
}

function sum(estimates: TEstimate[]): number {
  return estimates.reduce((total, e) => total + e.cost, 0);
}

function estimate(node: TNode, scope: TScope): TEstimate {
  const args = node.args;
  switch (node.op) {
    case "value":
      return { cost: 1, size: 1, element: 0 };
    case "id": {
      const bound = typeof args === "string" ? scope.get(args) : undefined;
      return bound ? { cost: 1, ...bound } : unknownSize(1);
    }
    case "list": {
      const items = nodes(args).map((n) => estimate(n, scope));
      return {
        cost: 1 + sum(items),
        size: items.length,
        element: items.reduce((max, e) => Math.max(max, e.size), 0),
      };
    }
    case "map": {
      const entries = (Array.isArray(args) ? args : []) as unknown[][];
      const parts = entries.flatMap((entry) => nodes(entry).map((n) => estimate(n, scope)));
      return { cost: 1 + sum(parts), size: entries.length, element: 1 };
    }
    case "[]":
    case "[?]": {
      const [target, key] = nodes(args).map((n) => estimate(n, scope));
      const cost = 1 + (target?.cost ?? 0) + (key?.cost ?? 0);
      return { cost, size: target?.element || ASSUMED_COLLECTION_SIZE, element: ASSUMED_COLLECTION_SIZE };
    }
    case "in": {
      const [value, collection] = nodes(args).map((n) => estimate(n, scope));
      return { cost: 1 + sum([value!, collection!]) + collection!.size, size: 1, element: 0 };
    }
    case "+": {
      // list concatenation copies both sides
      const [left, right] = nodes(args).map((n) => estimate(n, scope));
      const size = left!.size + right!.size;
      return { cost: 1 + left!.cost + right!.cost, size, element: Math.max(left!.element, right!.element) };
    }
    case "?:": {
      const [condition, then, otherwise] = nodes(args).map((n) => estimate(n, scope));
      const branch = then!.cost >= otherwise!.cost ? then! : otherwise!;
      return {
        cost: 1 + condition!.cost + branch.cost,
        size: Math.max(then!.size, otherwise!.size),
        element: Math.max(then!.element, otherwise!.element),
      };
    }
    case "call": {
      const [name, callArgs] = args as [string, unknown];
      const parts = nodes(callArgs).map((n) => estimate(n, scope));
      return unknownSize(1 + (CALL_WEIGHT[name] ?? 0) + sum(parts));
    }
    case "rcall":
      return methodCall(args as [string, unknown, unknown], scope);
    default: {
      // field access, operators, unary: one step plus their operands
      const parts = nodes(args).map((n) => estimate(n, scope));
      return unknownSize(1 + sum(parts));
    }
  }
}

function methodCall([name, receiverNode, callArgs]: [string, unknown, unknown], scope: TScope): TEstimate {
  const argNodes = nodes(callArgs);
  const receiver = isNode(receiverNode) ? estimate(receiverNode, scope) : unknownSize(0);
  const variable = argNodes[0]?.op === "id" ? (argNodes[0].args as string) : null;

  if (name === "bind" && isNode(receiverNode) && receiverNode.op === "id" && receiverNode.args === "cel") {
    const [, valueNode, bodyNode] = argNodes;
    const value = estimate(valueNode!, scope);
    const inner = new Map(scope).set(variable ?? "", { size: value.size, element: value.element });
    const body = estimate(bodyNode!, inner);
    return { ...body, cost: 1 + value.cost + body.cost };
  }
  if (MACROS.has(name) && variable !== null) {
    const inner = new Map(scope).set(variable, { size: receiver.element, element: ASSUMED_COLLECTION_SIZE });
    const body = argNodes.slice(1).map((n) => estimate(n, inner));
    const cost = receiver.cost + 1 + receiver.size * (1 + sum(body));
    if (name === "map") return { cost, size: receiver.size, element: body[body.length - 1]!.size };
    if (name === "filter") return { cost, size: receiver.size, element: receiver.element };
    return { cost, size: 1, element: 0 };
  }
  const parts = argNodes.map((n) => estimate(n, scope));
  return unknownSize(1 + (CALL_WEIGHT[name] ?? 0) + receiver.cost + sum(parts));
}

/** The estimated evaluation steps of one evaluation of an expression (see the header). */
export function estimateCost(ast: ASTNode): number {
  return estimate(ast as unknown as TNode, new Map()).cost;
}

/** Null when within the limit, else the problem to show: the estimate and the limit. */
export function costProblem(ast: ASTNode): string | null {
  const cost = estimateCost(ast);
  if (cost <= RULE_COST_LIMIT) return null;
  const shown = Number.isFinite(cost) ? Math.round(cost).toLocaleString("en-US") : "unbounded";
  return (
    `too expensive: estimated cost ${shown} exceeds the limit of ${RULE_COST_LIMIT.toLocaleString("en-US")} ` +
    `evaluation steps (each comprehension multiplies its body by the size of its list; a list read ` +
    `from the request counts as ${ASSUMED_COLLECTION_SIZE} elements)`
  );
}

/** `s.matches("literal")` calls whose pattern RE2 refuses, with the pattern's position. */
function patternProblems(ast: ASTNode): Array<{ message: string; start: number; end: number }> {
  const problems: Array<{ message: string; start: number; end: number }> = [];
  const visit = (node: TNode & { start?: number; end?: number }): void => {
    if (node.op === "rcall" && (node.args as unknown[])[0] === "matches") {
      const pattern = nodes((node.args as unknown[])[2])[0] as
        (TNode & { start: number; end: number }) | undefined;
      if (pattern?.op === "value" && typeof pattern.args === "string") {
        const problem = patternProblem(pattern.args);
        if (problem) {
          problems.push({
            message: `invalid regular expression (RE2 syntax): ${problem}`,
            start: pattern.start,
            end: pattern.end,
          });
        }
      }
    }
    const args = node.args;
    const children = Array.isArray(args) ? args.flat() : [args];
    for (const child of children) if (isNode(child)) visit(child);
  };
  visit(ast as unknown as TNode);
  return problems;
}

/**
 * What makes an otherwise valid expression unsafe to run on a shared server: a cost over the limit,
 * a regular expression RE2 refuses. Positions are printed `line:column`, as for type errors.
 */
export function safetyProblems(
  field: string,
  source: string,
  ast: ASTNode,
): Array<{ field: string; message: string; start?: number; end?: number }> {
  const problems: Array<{ field: string; message: string; start?: number; end?: number }> = patternProblems(
    ast,
  ).map((p) => ({ field, ...p, message: `${position(source, p.start)}: ${p.message}` }));
  const cost = costProblem(ast);
  if (cost) problems.push({ field, message: cost });
  return problems;
}
