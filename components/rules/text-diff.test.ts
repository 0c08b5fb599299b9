import { describe, expect, it } from "vitest";
import { textDiff } from "@/components/rules/text-diff";

describe("textDiff", () => {
  it("diffs one-line conditions by token", () => {
    const { parts, byLine } = textDiff("transaction.amount > 1000", "transaction.amount > 5000");
    expect(byLine).toBe(false);
    expect(parts.filter((p) => p.kind !== "same")).toEqual([
      { kind: "removed", text: "1000" },
      { kind: "added", text: "5000" },
    ]);
  });

  it("diffs multi-line conditions by line", () => {
    const { parts } = textDiff("a\nb\nc", "a\nc\nd");
    expect(parts).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "same", text: "c" },
      { kind: "added", text: "d" },
    ]);
  });
});
