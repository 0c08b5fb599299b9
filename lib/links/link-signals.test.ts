import { describe, expect, it } from "vitest";
import { compileCondition, evaluateCondition, ruleProblems } from "@/lib/rules/cel";
import { callKey, evaluateWithLinks, linkCalls, linkRequests } from "@/lib/links/link-signals";

const problems = (
  subject: "transaction" | "merchant" | "user" | "event" | "paymentInstrument",
  condition: string,
) => ruleProblems({ subject, condition, aggregates: {} }).map((p) => p.message);

describe("links.* in rule conditions", () => {
  it("type checks for subjects with a user", () => {
    for (const subject of ["transaction", "user", "event", "paymentInstrument"] as const) {
      expect(
        problems(
          subject,
          'links.count("deviceFingerprint") >= 2 || links.count("phone", "30d") > 0 || links.blockedCount() > 0 || links.fraudCount() > 0',
        ),
      ).toEqual([]);
    }
  });

  it("refuses merchant rules by name", () => {
    expect(problems("merchant", 'links.count("phone") > 1')).toEqual([
      "1:1: links.* is not available to merchant rules: a merchant has no user (transaction, user, event and paymentInstrument rules can use it)",
    ]);
  });

  it("reports unknown kinds, bad windows, non-literals, wrong arguments and unknown functions", () => {
    expect(problems("transaction", 'links.count("shoeSize") > 1')).toEqual([
      expect.stringMatching(/^1:1: unknown identifier kind "shoeSize"; expected one of phone, email/),
    ]);
    expect(problems("transaction", 'links.count("phone", "30 days") > 1')).toEqual([
      '1:1: invalid window "30 days"; expected a duration such as 10m, 24h or 30d',
    ]);
    expect(problems("transaction", 'links.count("phone", "401d") > 1')).toEqual([
      '1:1: window "401d" may not exceed 400d',
    ]);
    expect(problems("transaction", "links.count(transaction.id) > 1")).toEqual([
      '1:1: links.count takes the kind as a string literal, e.g. links.count("phone")',
    ]);
    expect(problems("transaction", "links.count(1) > 1")[0]).toMatch(
      /wrong arguments: links.count\(int\); expected links.count\(string\): int or links.count\(string, string\): int/,
    );
    expect(problems("transaction", "links.size() > 1")[0]).toMatch(/unknown function links.size\(\)/);
    expect(problems("transaction", 'links.count("phone") > "2"')[0]).toMatch(/type mismatch/);
  });

  it("collects what a screening must read", () => {
    const ast = compileCondition(
      "transaction",
      'links.count("phone") > 1 && links.count("email", "7d") > 0 && links.fraudCount() == 0',
    ).ast;
    expect(linkCalls(ast).calls).toEqual([
      { name: "count", kind: "phone" },
      { name: "count", kind: "email", window: "7d" },
      { name: "fraudCount" },
    ]);
    expect(linkRequests([ast])).toEqual({
      kinds: ["phone"],
      windows: [{ kind: "email", window: "7d" }],
      blocked: false,
      fraud: true,
    });
    expect(linkRequests([compileCondition("transaction", "transaction.amount > 1").ast])).toBeNull();
  });

  it("evaluates against the values read and records the calls each rule made", () => {
    const condition = compileCondition(
      "transaction",
      'links.count("deviceFingerprint") >= 2 && links.blockedCount() == 0',
    );
    const values = new Map([
      [callKey("count", ["deviceFingerprint"]), 2],
      [callKey("blockedCount", []), 0],
    ]);
    const { result, used } = evaluateWithLinks(values, (wrap) =>
      wrap(() => ({ versionId: "v1", fired: evaluateCondition("transaction", condition, {}, {}) })),
    );
    expect(result.fired).toBe(true);
    expect(used).toEqual({ v1: { 'links.count("deviceFingerprint")': 2, "links.blockedCount()": 0 } });
    // without values (no rule asked for them), a call is an evaluation error, never a silent 0
    expect(() => evaluateCondition("transaction", condition, {}, {})).toThrow(/not available/);
  });
});
