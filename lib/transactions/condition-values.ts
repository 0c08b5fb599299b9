// Which input values a CEL condition read, so the dashboard can show "amount = 12000" beside
// "transaction.amount >= 10000". A best-effort reading of field paths, not a CEL parser.

const PATH = /\b(transaction|user|merchant|event|paymentInstrument)((?:\s*\.\??\s*[A-Za-z_][A-Za-z0-9_]*)+)/g;
const CEL_METHODS = new Set([
  "orValue",
  "hasValue",
  "value",
  "size",
  "contains",
  "startsWith",
  "endsWith",
  "matches",
  "exists",
  "all",
  "map",
  "filter",
]);

function valueAt(root: unknown, keys: string[]): unknown {
  let cur = root;
  for (const k of keys) {
    if (cur === null || typeof cur !== "object" || !(k in cur)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** `{ "transaction.amount": 12000, ... }` for the paths the condition mentions (absent ones omitted). */
export function conditionValues(
  condition: string,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const match of condition.matchAll(PATH)) {
    const root = match[1]!;
    const keys: string[] = [];
    for (const part of match[2]!.split(".").map((p) => p.replace(/[?\s]/g, ""))) {
      if (!part) continue;
      if (CEL_METHODS.has(part)) break;
      keys.push(part);
    }
    if (keys.length === 0) continue;
    const value = valueAt(variables[root], keys);
    if (value !== undefined && (value === null || typeof value !== "object"))
      out[[root, ...keys].join(".")] = value;
  }
  return out;
}
