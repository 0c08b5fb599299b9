// The CEL functions on user links: `links.count(kind)`, `links.count(kind, window)`,
// `links.blockedCount()`, `links.fraudCount()`, for rule subjects with a user.
//
// cel-js calls function handlers without the evaluation's variables, so the values read for one
// screening are bound around its synchronous rule evaluation (`evaluateWithLinks`), as inList and
// sanctionsScore are: nothing is awaited inside, so concurrent screenings never see each other's.
// Which values a screening needs is known from the rules' ASTs (`linkRequests`): the read runs only
// when a live rule calls links.*, and reads only what the calls name.
import type { ASTNode } from "@marcbachmann/cel-js";
import type { TRuleSubject } from "@/lib/rules/schemas";
import { windowMs } from "@/lib/rules/schemas";
import { IDENTIFIER_KINDS, type TIdentifierKind } from "@/lib/users/index-identifiers";

/** Rule subjects that have a user, so links.* applies. */
export const LINK_SUBJECTS: readonly TRuleSubject[] = ["transaction", "user", "event", "paymentInstrument"];

const MAX_WINDOW_MS = 400 * 86_400_000;

/** What cel-js sees: one handle, bound as the variable `links`, whose methods read the current frame. */
export class LinksHandle {}
export const LINKS = new LinksHandle();

/** The link values a screening needs: kinds counted, (kind, window) pairs, blocked and fraud counts. */
export type TLinkRequests = {
  kinds: TIdentifierKind[];
  windows: Array<{ kind: TIdentifierKind; window: string }>;
  blocked: boolean;
  fraud: boolean;
};

/** The values read for a screening, by call key (`callKey`). */
export type TLinkValues = ReadonlyMap<string, number>;

/** How a call is shown on the decision and in the rule explanation. */
export function callKey(name: string, args: readonly string[]): string {
  return `links.${name}(${args.map((a) => JSON.stringify(a)).join(", ")})`;
}

let current: { values: TLinkValues; calls: Record<string, number> } | null = null;

function read(key: string): bigint {
  if (!current) throw new Error("links: link values are not available to this evaluation");
  const value = current.values.get(key);
  if (value === undefined) throw new Error(`${key}: not computed`);
  current.calls[key] = value;
  return BigInt(value);
}

/** Registers the `links` variable and its functions in a CEL environment (rule conditions). */
export function registerLinkFunctions(env: {
  registerType(name: string, ctor: new () => unknown): unknown;
  registerVariable(name: string, type: string): unknown;
  registerFunction(signature: string, handler: (...args: never[]) => unknown): unknown;
}): void {
  env.registerType("Links", LinksHandle);
  env.registerVariable("links", "Links");
  env.registerFunction("Links.count(string): int", ((_: LinksHandle, kind: string) =>
    read(callKey("count", [kind]))) as (...args: never[]) => unknown);
  env.registerFunction("Links.count(string, string): int", ((_: LinksHandle, kind: string, w: string) =>
    read(callKey("count", [kind, w]))) as (...args: never[]) => unknown);
  env.registerFunction("Links.blockedCount(): int", (() => read(callKey("blockedCount", []))) as (
    ...args: never[]
  ) => unknown);
  env.registerFunction("Links.fraudCount(): int", (() => read(callKey("fraudCount", []))) as (
    ...args: never[]
  ) => unknown);
}

/** Signatures as rule authors read them (editor completions, error messages). */
export const LINK_FUNCTIONS = [
  {
    signature: "links.count(string): int",
    doc: 'Other users sharing a value of this identifier kind: links.count("deviceFingerprint")',
  },
  {
    signature: "links.count(string, string): int",
    doc: 'The same, only through uses within the window: links.count("deviceFingerprint", "30d")',
  },
  { signature: "links.blockedCount(): int", doc: "Linked users (depth 1) now blocked" },
  {
    signature: "links.fraudCount(): int",
    doc: "Linked users (depth 1) with a transaction confirmed as fraud",
  },
] as const;

/**
 * Runs one synchronous evaluation with links.* bound to `values`. `wrapRule` records, per evaluated
 * rule, the calls it made (keyed by its version id).
 */
export function evaluateWithLinks<T>(
  values: TLinkValues | null,
  evaluate: (wrapRule: <R extends { versionId: string }>(evaluateRule: () => R) => R) => T,
): { result: T; used: Record<string, Record<string, number>> } {
  const used: Record<string, Record<string, number>> = {};
  if (!values) return { result: evaluate((e) => e()), used };
  const previous = current;
  const frame = { values, calls: {} as Record<string, number> };
  current = frame;
  try {
    const result = evaluate((evaluateRule) => {
      frame.calls = {};
      const evaluated = evaluateRule();
      if (Object.keys(frame.calls).length) used[evaluated.versionId] = frame.calls;
      return evaluated;
    });
    return { result, used };
  } finally {
    current = previous;
  }
}

/** A source answering what a decision recorded (replay). */
export function recordedLinkValues(used: Record<string, Record<string, number>> | undefined): TLinkValues {
  const values = new Map<string, number>();
  for (const calls of Object.values(used ?? {})) for (const [k, v] of Object.entries(calls)) values.set(k, v);
  return values;
}

// ---------------------------------------------------------------- static analysis

type TNode = {
  op: string;
  args: unknown;
  range?: { start: number; end: number };
  start?: number;
  end?: number;
};

function isNode(value: unknown): value is TNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value;
}

function walk(node: unknown, visit: (node: TNode) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!isNode(node)) return;
  visit(node);
  if (typeof node.args === "object" && node.args !== null) walk(node.args, visit);
}

export type TLinkCall =
  { name: "count"; kind: TIdentifierKind; window?: string } | { name: "blockedCount" | "fraudCount" };
export type TLinkProblem = { message: string; start: number; end: number };

/** Whether an expression's text mentions links at all (a false positive only costs a parse). */
export function mentionsLinks(source: string): boolean {
  return /\blinks\b/.test(source);
}

function literal(node: unknown): string | null {
  return isNode(node) && node.op === "value" && typeof node.args === "string" ? node.args : null;
}

/**
 * The links.* calls of a condition, checked: the kind and the window must be literals (so the
 * screening knows what to read before it evaluates), a known kind and a valid window.
 */
export function linkCalls(ast: ASTNode): { calls: TLinkCall[]; problems: TLinkProblem[] } {
  const calls: TLinkCall[] = [];
  const problems: TLinkProblem[] = [];
  walk(ast, (node) => {
    if (node.op !== "rcall" || !Array.isArray(node.args)) return;
    const [name, receiver, args] = node.args as [unknown, unknown, unknown];
    if (!isNode(receiver) || receiver.op !== "id" || receiver.args !== "links") return;
    const range = node.range ?? { start: node.start ?? 0, end: node.end ?? 0 };
    const fail = (message: string) => problems.push({ message, ...range });
    const list = Array.isArray(args) ? args : [];
    if (name === "blockedCount" || name === "fraudCount") {
      if (list.length === 0) calls.push({ name });
      return; // wrong arguments are the type checker's
    }
    if (name !== "count" || list.length < 1 || list.length > 2) return;
    const kind = literal(list[0]);
    if (kind === null)
      return fail('links.count takes the kind as a string literal, e.g. links.count("phone")');
    if (!(IDENTIFIER_KINDS as readonly string[]).includes(kind)) {
      return fail(`unknown identifier kind "${kind}"; expected one of ${IDENTIFIER_KINDS.join(", ")}`);
    }
    if (list.length === 1) return void calls.push({ name, kind: kind as TIdentifierKind });
    const window = literal(list[1]);
    if (window === null) return fail('links.count takes the window as a string literal, e.g. "30d"');
    let ms: number;
    try {
      ms = windowMs(window);
    } catch {
      return fail(`invalid window "${window}"; expected a duration such as 10m, 24h or 30d`);
    }
    if (ms > MAX_WINDOW_MS) return fail(`window "${window}" may not exceed 400d`);
    calls.push({ name, kind: kind as TIdentifierKind, window });
  });
  return { calls, problems };
}

/** What a set of conditions needs read; null when none calls links.*. */
export function linkRequests(asts: Iterable<ASTNode>): TLinkRequests | null {
  const kinds = new Set<TIdentifierKind>();
  const windows = new Map<string, { kind: TIdentifierKind; window: string }>();
  let blocked = false;
  let fraud = false;
  let any = false;
  for (const ast of asts) {
    for (const call of linkCalls(ast).calls) {
      any = true;
      if (call.name !== "count") {
        if (call.name === "blockedCount") blocked = true;
        else fraud = true;
      } else if (call.window)
        windows.set(`${call.kind}\u0000${call.window}`, { kind: call.kind, window: call.window });
      else kinds.add(call.kind);
    }
  }
  return any ? { kinds: [...kinds], windows: [...windows.values()], blocked, fraud } : null;
}
