import { pointer } from "@/lib/http/zod-issues";

// PostgreSQL text and jsonb cannot hold U+0000: a string carrying it would fail in the database
// (a 500) instead of being refused as input. Checked once, in the wrapper, for body, params and query.

const MAX_DETAILS = 20;

type TNode = { value: unknown; key?: PropertyKey; parent?: TNode };

function pathOf(node: TNode): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let n: TNode | undefined = node; n?.key !== undefined; n = n.parent) path.unshift(n.key);
  return path;
}

/** `<pointer>: <message>` for each string (or object key) containing U+0000, at most MAX_DETAILS. */
export function nulCharacterIssues(value: unknown): string[] {
  const found: string[] = [];
  // Iterative with parent links, so a deeply nested body costs neither stack nor quadratic memory.
  const stack: TNode[] = [{ value }];
  while (stack.length && found.length < MAX_DETAILS) {
    const node = stack.pop()!;
    if (typeof node.value === "string") {
      if (node.value.includes("\u0000"))
        found.push(`${pointer(pathOf(node))}: String must not contain NUL characters`);
    } else if (Array.isArray(node.value)) {
      node.value.forEach((v, i) => stack.push({ value: v, key: i, parent: node }));
    } else if (node.value !== null && typeof node.value === "object") {
      for (const [k, v] of Object.entries(node.value)) {
        const child = { value: v, key: k, parent: node };
        if (k.includes("\u0000"))
          found.push(`${pointer(pathOf(child))}: Field name must not contain NUL characters`);
        stack.push(child);
      }
    }
  }
  return found.slice(0, MAX_DETAILS);
}
