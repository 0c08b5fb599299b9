// A runtime budget per rule evaluation, and the hooks in compiled CEL programs that enforce it.
//
// The static bound (lib/rules/rule-cost.ts) assumes the size of the lists a rule reads; a request
// may hold more. Evaluation is synchronous and shares the process with every tenant, so each
// evaluation counts its comprehension steps (the only work that multiplies) and stops at
// RULE_STEP_LIMIT, or at RULE_TIME_LIMIT_MS of wall-clock time, whichever comes first. The step
// limit makes the stop deterministic for the same data; the deadline bounds steps that are each
// expensive (long strings). A stopped evaluation throws RuleBudgetError, which the caller records
// like any evaluation error.
//
// cel-js (8.0.0, pinned) has no step hook. Its macros expand to comprehension nodes reachable as
// `node.meta.alternate`, each with a `step` node run once per element; a node's `evaluate` is an
// own-property slot that cel-js itself replaces on first use. The hooks below take that slot on the
// step nodes (to count) and on `matches` calls (to run RE2 instead of JavaScript's backtracking
// RegExp). lib/rules/evaluation-budget.test.ts fails if an upgrade changes that shape.
import type { ASTNode } from "@marcbachmann/cel-js";
import { re2Matches } from "@/lib/rules/re2-matches";

/**
 * Comprehension steps one evaluation may take (a condition, or an aggregate's where over its window).
 * Each step costs at least two in the static bound, so no rule within RULE_COST_LIMIT reaches it with
 * lists of the assumed size.
 */
export const RULE_STEP_LIMIT = 50_000;
/**
 * Wall-clock time one evaluation may take, in milliseconds: the backstop for steps that are each
 * expensive. Generous, because a process under load (or not yet optimised by the JIT) runs the same
 * steps several times slower, and a rule stopped by the clock alone would miss a hit.
 */
export const RULE_TIME_LIMIT_MS = 100;
// the clock is read every few steps: reading it costs about as much as a cheap step
const CLOCK_EVERY = 16;

export class RuleBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RuleBudgetError";
  }
}

type TBudget = { steps: number; deadline: number; exceeded: string | null };

let current: TBudget | null = null;

// Thrown inside cel-js to unwind; the message the caller sees is set at the budget's boundary.
// cel-js's quantifiers may swallow it (`false || error` is false), hence `exceeded`.
const STOP = new RuleBudgetError("rule evaluation stopped");

function exceed(budget: TBudget, reason: string): never {
  budget.exceeded = reason;
  throw STOP;
}

function step(): void {
  const budget = current;
  if (!budget) return;
  if (budget.exceeded) throw STOP;
  const steps = ++budget.steps;
  if (steps > RULE_STEP_LIMIT) {
    exceed(
      budget,
      `evaluation budget exceeded: more than ${RULE_STEP_LIMIT.toLocaleString("en-US")} comprehension steps`,
    );
  }
  if (steps % CLOCK_EVERY === 0) checkClock(budget);
}

function checkClock(budget: TBudget): void {
  if (performance.now() > budget.deadline)
    exceed(budget, `evaluation budget exceeded: took longer than ${RULE_TIME_LIMIT_MS} ms`);
}

/**
 * Runs `evaluate` within a budget: a fresh one, or the enclosing one when called inside another
 * (an aggregate's where filter shares one budget across the rows of its window). Throws
 * RuleBudgetError when the budget ran out, whatever the expression returned.
 */
export function withinBudget<T>(evaluate: () => T): T {
  if (current) {
    const result = evaluate();
    if (current.exceeded) throw new RuleBudgetError(current.exceeded);
    return result;
  }
  const budget: TBudget = { steps: 0, deadline: performance.now() + RULE_TIME_LIMIT_MS, exceeded: null };
  current = budget;
  try {
    const result = evaluate();
    if (budget.exceeded) throw new RuleBudgetError(budget.exceeded);
    return result;
  } catch (err) {
    if (budget.exceeded) throw new RuleBudgetError(budget.exceeded);
    throw err;
  } finally {
    current = null;
  }
}

/** Whether the enclosing budget ran out (an evaluation error swallowed by its caller still stops). */
export function budgetExceeded(): boolean {
  return current?.exceeded != null;
}

type TEvaluate = (ev: TEvaluator, ast: TNode, ctx: unknown) => unknown;
type TEvaluator = { run: (node: TNode, ctx: unknown) => unknown };
type TNode = {
  op: string;
  args: unknown;
  evaluate: TEvaluate;
  meta: { alternate?: TNode; evaluate: TEvaluate };
};

function isNode(value: unknown): value is TNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value;
}

function children(node: TNode): TNode[] {
  const out: TNode[] = [];
  const collect = (value: unknown): void => {
    if (isNode(value)) out.push(value);
    else if (Array.isArray(value)) for (const item of value) collect(item);
  };
  collect(node.args);
  return out;
}

/** The step node of a comprehension counts one step each time it runs. */
function countSteps(stepNode: TNode): void {
  const meta = stepNode.meta;
  stepNode.evaluate = function (ev, ast, ctx) {
    step();
    const alternate = meta.alternate;
    if (alternate) return alternate.evaluate(ev, alternate, ctx);
    return meta.evaluate.call(this, ev, ast, ctx);
  };
}

/** `s.matches(p)` runs RE2; the receiver and pattern are evaluated as cel-js would. */
function useRe2(call: TNode): void {
  const [, receiver, args] = call.args as [string, TNode, TNode[]];
  const pattern = args[0]!;
  call.evaluate = (ev, _ast, ctx) => {
    const input = ev.run(receiver, ctx);
    const regex = ev.run(pattern, ctx);
    if (typeof input !== "string" || typeof regex !== "string") {
      throw new Error(`found no matching overload for '${typeof input}.matches(${typeof regex})'`);
    }
    if (current) checkClock(current);
    return re2Matches(input, regex);
  };
}

/** Installs the budget's step counting and RE2 `matches` in a parsed (and checked) program. */
export function instrumentProgram(ast: ASTNode): void {
  const visit = (node: TNode): void => {
    const comprehension = node.meta.alternate;
    if (comprehension?.op === "comprehension") {
      const { step: stepNode } = comprehension.args as { step: TNode };
      countSteps(stepNode);
    }
    if (node.op === "rcall" && (node.args as unknown[])[0] === "matches") useRe2(node);
    for (const child of children(node)) visit(child);
  };
  visit(ast as unknown as TNode);
}
