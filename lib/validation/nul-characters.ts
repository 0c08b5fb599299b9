import { pointer } from "@/lib/validation/zod-issues";

// PostgreSQL text and jsonb cannot hold U+0000, and jsonb refuses an unpaired UTF-16 surrogate
// ("\ud800"): a string carrying either would fail in the database (a 500) instead of being refused
// as input. Checked once, in the wrapper, for body, params and query.

const MAX_DETAILS = 20;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type TNode = { value: unknown; key?: PropertyKey; parent?: TNode };

function pathOf(node: TNode): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let n: TNode | undefined = node; n?.key !== undefined; n = n.parent) path.unshift(n.key);
  return path;
}

function problem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL characters";
  if (LONE_SURROGATE.test(text)) return "must not contain unpaired UTF-16 surrogates";
  return null;
}

/** `<pointer>: <message>` for each string (or object key) PostgreSQL could not store, at most MAX_DETAILS. */
export function nulCharacterIssues(value: unknown): string[] {
  const found: string[] = [];
  // Iterative with parent links, so a deeply nested body costs neither stack nor quadratic memory.
  const stack: TNode[] = [{ value }];
  while (stack.length && found.length < MAX_DETAILS) {
    const node = stack.pop()!;
    if (typeof node.value === "string") {
      const bad = problem(node.value);
      if (bad) found.push(`${pointer(pathOf(node))}: String ${bad}`);
    } else if (Array.isArray(node.value)) {
      node.value.forEach((v, i) => stack.push({ value: v, key: i, parent: node }));
    } else if (node.value !== null && typeof node.value === "object") {
      for (const [k, v] of Object.entries(node.value)) {
        const child = { value: v, key: k, parent: node };
        const bad = problem(k);
        if (bad) found.push(`${pointer(pathOf(child))}: Field name ${bad}`);
        stack.push(child);
      }
    }
  }
  return found.slice(0, MAX_DETAILS);
}
