// The CEL function `inList("NAME", value)` (docs/decisions.md §10) and the evaluation it reads.
//
// cel-js calls function handlers without the evaluation's variables, so the client's lists are
// bound around one synchronous evaluation of a screening's rules (`evaluateWithLists`), exactly as
// sanctionsScore does: nothing is awaited inside, so concurrent screenings never see each other's.
import type { ASTNode } from "@marcbachmann/cel-js";
import type { ListIndex } from "@/lib/lists/list-index";

/** One lookup, recorded on the decision (explanation and replay). */
export type TListLookup = { list: string; value: string; matched: string | null };

/** Answers the matched entry, null for no match, undefined when the list does not exist. */
export type TListSource = (list: string, value: string) => string | null | undefined;

let current: { source: TListSource; lookups: TListLookup[] } | null = null;

function lookupText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return null;
}

export function inList(list: string, value: unknown): boolean {
  if (!current) throw new Error("inList: no lists are available to this evaluation");
  const text = lookupText(value);
  // an absent field read with .orValue("") is in no list: not worth a lookup or a line on the decision
  if (text === null || text.trim() === "") return false;
  const known = current.lookups.find((l) => l.list === list && l.value === text);
  if (known) return known.matched !== null;
  const matched = current.source(list, text);
  if (matched === undefined) throw new Error(`inList: list '${list}' does not exist`);
  current.lookups.push({ list, value: text, matched });
  return matched !== null;
}

/** Registers inList in a CEL environment (rule conditions). */
export function registerListFunctions(env: {
  registerFunction(signature: string, handler: (...args: never[]) => unknown): unknown;
}): void {
  env.registerFunction("inList(string, dyn): bool", inList as (...args: never[]) => unknown);
}

/** Runs one synchronous evaluation with inList bound to `source`; returns the lookups it made. */
export function evaluateWithLists<T>(
  source: TListSource,
  evaluate: () => T,
): { result: T; lookups: TListLookup[] } {
  const previous = current;
  const frame = { source, lookups: [] as TListLookup[] };
  current = frame;
  try {
    return { result: evaluate(), lookups: frame.lookups };
  } finally {
    current = previous;
  }
}

/** A source over the lists in memory, matching at `now` (expired entries never match). */
export function liveListSource(lists: ReadonlyMap<string, ListIndex>, now = Date.now()): TListSource {
  return (list, value) => {
    const index = lists.get(list);
    return index ? index.match(value, now) : undefined;
  };
}

/** A source that answers what a decision recorded (replay: lists may have changed since). */
export function recordedListSource(lookups: readonly TListLookup[]): TListSource {
  return (list, value) => {
    const hit = lookups.find((l) => l.list === list && l.value === value);
    if (!hit) throw new Error(`inList: no recorded lookup of '${value}' in '${list}'`);
    return hit.matched;
  };
}

type TNode = { op: string; args: unknown };

function isNode(value: unknown): value is TNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value;
}

/**
 * The list names an expression's inList calls use; `null` for a call whose name is not a quoted
 * string (refused at import: the lists a rule reads must be known in advance).
 */
export function listNamesIn(ast: ASTNode): Array<string | null> {
  const names: Array<string | null> = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isNode(node)) return;
    if (node.op === "call" && Array.isArray(node.args) && node.args[0] === "inList") {
      const first = (node.args[1] as unknown[])[0];
      names.push(isNode(first) && first.op === "value" && typeof first.args === "string" ? first.args : null);
    }
    if (typeof node.args === "object" && node.args !== null) visit(node.args);
  };
  visit(ast);
  return names;
}

/** Whether a condition calls inList (a plain text test, like usesSanctions). */
export function usesLists(condition: string): boolean {
  return condition.includes("inList");
}
