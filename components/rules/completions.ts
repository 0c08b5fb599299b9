// Field completion of the condition editor: pure, so it is tested beside it.

export type TCompletion = { label: string; detail: string };

/** The identifier path being typed just before the caret (`transaction.?car`), with its start offset. */
export function tokenAt(text: string, caret: number): { start: number; token: string } | null {
  const match = /[A-Za-z_][A-Za-z0-9_]*(?:\.\??[A-Za-z_][A-Za-z0-9_]*)*(?:\.\??)?$/.exec(
    text.slice(0, caret),
  );
  return match ? { start: match.index, token: match[0] } : null;
}

/** Completions for a token: declared paths one segment deeper than what is typed, starting with it. */
export function complete(token: string, candidates: readonly TCompletion[], limit = 12): TCompletion[] {
  const plain = token.replace(/\.\?/g, ".");
  const depth = plain.split(".").length;
  const out: TCompletion[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (c.label === plain || seen.has(c.label) || c.label.split(".").length !== depth) continue;
    if (!c.label.toLowerCase().startsWith(plain.toLowerCase())) continue;
    seen.add(c.label);
    out.push(c);
    if (out.length >= limit) break;
  }
  return out;
}

/** The token with its last segment completed, keeping the author's optional chaining (`.?`). */
export function applyCompletion(token: string, label: string): string {
  const prefix = /^(.*\.\??)[^.?]*$/.exec(token)?.[1] ?? "";
  return prefix + label.slice(label.lastIndexOf(".") + 1);
}
