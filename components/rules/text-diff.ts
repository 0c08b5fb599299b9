// Tiny LCS diff for rule conditions: by line, or by token when both sides are one line.
export type TDiffPart = { kind: "same" | "added" | "removed"; text: string };

function lcsDiff(a: string[], b: string[]): TDiffPart[] {
  const n = a.length;
  const m = b.length;
  // conditions are short (≤ 10,000 chars), so the quadratic table is fine
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i]![j] =
        a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const out: TDiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: "same", text: a[i]! });
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) out.push({ kind: "removed", text: a[i++]! });
    else out.push({ kind: "added", text: b[j++]! });
  }
  while (i < n) out.push({ kind: "removed", text: a[i++]! });
  while (j < m) out.push({ kind: "added", text: b[j++]! });
  return out;
}

export function textDiff(before: string, after: string): { parts: TDiffPart[]; byLine: boolean } {
  const byLine = before.includes("\n") || after.includes("\n");
  if (byLine) return { parts: lcsDiff(before.split("\n"), after.split("\n")), byLine };
  const tokens = (s: string) => s.split(/(\s+)/).filter((t) => t !== "");
  return { parts: lcsDiff(tokens(before), tokens(after)), byLine };
}
