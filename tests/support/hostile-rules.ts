// Rule conditions an attacker with the rule editor would write (SECURITY.md, "Rules cannot stop the server").

/** A literal list `[0, 1, ..., n-1]` (CEL has no range syntax). */
export function literalRange(n: number): string {
  return `[${Array.from({ length: n }, (_, i) => i).join(", ")}]`;
}

/** `levels` comprehensions nested over a literal list of `size` elements, summing the variables. */
export function nestedComprehensions(levels: number, size: number): string {
  const names = "abcdefgh".slice(0, levels).split("");
  let body = `${names.join(" + ")} >= 0`;
  for (const name of [...names].reverse()) body = `${literalRange(size)}.all(${name}, ${body})`;
  return body;
}

/** Within the static bound (a request list counts as 100 elements), but quadratic in the list it reads. */
export const QUADRATIC_OVER_RECIPIENTS =
  "transaction.recipients.all(a, transaction.recipients.all(b, a.amount + b.amount >= 0.0))";
