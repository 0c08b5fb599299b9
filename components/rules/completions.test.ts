import { describe, expect, it } from "vitest";
import { applyCompletion, complete, tokenAt } from "@/components/rules/completions";

const FIELDS = [
  { label: "transaction", detail: "object" },
  { label: "transaction.amount", detail: "double" },
  { label: "transaction.baseAmount", detail: "double" },
  { label: "transaction.card", detail: "object" },
  { label: "transaction.card.binCountry", detail: "string" },
  { label: "user", detail: "object" },
  { label: "user.status", detail: "string" },
];

describe("condition completion", () => {
  it("finds the path being typed before the caret", () => {
    expect(tokenAt("transaction.amount > 1 && user.st", 33)).toEqual({ start: 26, token: "user.st" });
    expect(tokenAt("x && transaction.?card.?bin", 27)).toEqual({ start: 5, token: "transaction.?card.?bin" });
    expect(tokenAt("transaction.", 12)).toEqual({ start: 0, token: "transaction." });
    expect(tokenAt("1 + ", 4)).toBeNull();
  });

  it("offers the next segment of declared paths only", () => {
    expect(complete("transaction.am", FIELDS).map((c) => c.label)).toEqual(["transaction.amount"]);
    expect(complete("transaction.", FIELDS).map((c) => c.label)).toEqual([
      "transaction.amount",
      "transaction.baseAmount",
      "transaction.card",
    ]);
    expect(complete("transaction.?card.?b", FIELDS).map((c) => c.label)).toEqual([
      "transaction.card.binCountry",
    ]);
    expect(complete("us", FIELDS).map((c) => c.label)).toEqual(["user"]);
    // a complete path offers nothing more at its own depth
    expect(complete("user.status", FIELDS)).toEqual([]);
  });

  it("completes the last segment and keeps optional chaining", () => {
    expect(applyCompletion("transaction.am", "transaction.amount")).toBe("transaction.amount");
    expect(applyCompletion("transaction.?card.?b", "transaction.card.binCountry")).toBe(
      "transaction.?card.?binCountry",
    );
    expect(applyCompletion("tra", "transaction")).toBe("transaction");
  });
});
