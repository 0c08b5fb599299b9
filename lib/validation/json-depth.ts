import { pointer } from "@/lib/validation/zod-issues";

// Deeply nested JSON parses fine but breaks whatever walks it recursively later (JSON.stringify when it is
// stored, zod, the rule engine) with a RangeError: refused up front, walked without recursion.

/** Deepest nesting of objects and arrays a request body may have; the body itself is level 1. */
export const MAX_JSON_DEPTH = 64;

/**
 * A detail naming the top-level field under which `value` nests deeper than `max`, or null. The pointer
 * names only the first two levels: the full path of a 5,000-level value is not worth reading.
 */
export function nestingIssue(value: unknown, max = MAX_JSON_DEPTH): string | null {
  const stack: { value: unknown; depth: number; path: (string | number)[] }[] = [
    { value, depth: 1, path: [] },
  ];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth > max)
      return `${pointer(item.path.slice(0, 2))}: must be nested at most ${max} levels deep`;
    const entries: [string | number, unknown][] = Array.isArray(item.value)
      ? item.value.map((v, i) => [i, v])
      : Object.entries(item.value as Record<string, unknown>);
    for (const [key, child] of entries)
      if (child !== null && typeof child === "object")
        stack.push({
          value: child,
          depth: item.depth + 1,
          path: item.path.length < 2 ? [...item.path, key] : item.path,
        });
  }
  return null;
}
