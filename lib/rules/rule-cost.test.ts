import { describe, expect, it } from "vitest";
import { compileCondition, validateRuleExpressions } from "@/lib/rules/cel";
import { DEMO_RULES } from "@/lib/rules/demo-rules";
import { ASSUMED_COLLECTION_SIZE, estimateCost, RULE_COST_LIMIT } from "@/lib/rules/rule-cost";
import type { TRuleDefinition } from "@/lib/rules/schemas";
import { SANCTIONS_RULES } from "@/lib/sanctions/demo-sanctions";
import { literalRange, nestedComprehensions, QUADRATIC_OVER_RECIPIENTS } from "@/tests/support/hostile-rules";

function rule(condition: string, overrides: Partial<TRuleDefinition> = {}): TRuleDefinition {
  return {
    id: "R1",
    name: "Rule",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "because",
    condition,
    ...overrides,
  };
}

const cost = (condition: string) => estimateCost(compileCondition("transaction", condition).ast);

describe("static cost bound", () => {
  it("refuses nested comprehensions over literal lists, naming the estimated cost and the limit", () => {
    const three = validateRuleExpressions(rule(nestedComprehensions(3, 120)));
    expect(three).toHaveLength(1);
    expect(three[0]).toMatch(
      /^condition: too expensive: estimated cost [\d,]+ exceeds the limit of 100,000 evaluation steps/,
    );
    const five = validateRuleExpressions(rule(nestedComprehensions(5, 100)));
    expect(five[0]).toMatch(/estimated cost 1[\d,]{14,} exceeds the limit of 100,000/);
    expect(RULE_COST_LIMIT).toBe(100_000);
  });

  it("grows with each level and each element", () => {
    expect(cost(nestedComprehensions(2, 10))).toBeGreaterThan(10 * 10);
    expect(cost(nestedComprehensions(2, 20))).toBeGreaterThan(3 * cost(nestedComprehensions(2, 10)));
    expect(cost(nestedComprehensions(3, 10))).toBeGreaterThan(9 * cost(nestedComprehensions(2, 10)));
    // a list read from the request counts as the assumed size
    const overRequest = cost("transaction.recipients.exists(r, r.amount > 5.0)");
    expect(overRequest).toBeGreaterThan(ASSUMED_COLLECTION_SIZE * 4);
    expect(overRequest).toBeLessThan(ASSUMED_COLLECTION_SIZE * 10);
    // map and filter results have their receiver's size; cel.bind passes the bound value's size
    expect(cost(`${literalRange(50)}.map(x, x * 2).all(y, y >= 0)`)).toBeLessThan(
      cost(`${literalRange(50)}.all(y, ${literalRange(50)}.all(z, y + z >= 0))`),
    );
    expect(cost(`cel.bind(xs, ${literalRange(300)}, xs.all(a, xs.all(b, a + b >= 0)))`)).toBeGreaterThan(
      RULE_COST_LIMIT,
    );
  });

  it("accepts what rules are written like: every demo rule, one level over a request list, two over small ones", () => {
    for (const demo of [...DEMO_RULES, ...SANCTIONS_RULES]) {
      expect([demo.id, validateRuleExpressions(demo)]).toEqual([demo.id, []]);
      expect(estimateCost(compileCondition(demo.subject, demo.condition).ast)).toBeLessThan(
        RULE_COST_LIMIT / 4,
      );
    }
    expect(validateRuleExpressions(rule(QUADRATIC_OVER_RECIPIENTS))).toEqual([]);
    expect(validateRuleExpressions(rule(nestedComprehensions(2, 50)))).toEqual([]);
  });

  it("checks each aggregate's where filter too", () => {
    const errors = validateRuleExpressions(
      rule("aggregates.n > 1", {
        aggregates: {
          n: {
            function: "count",
            over: "transaction",
            groupBy: "userId",
            window: "1d",
            where: `transaction.amount > 1.0 && ${nestedComprehensions(3, 50)}`,
          },
        },
      }),
    );
    expect(errors).toEqual([
      expect.stringMatching(/^aggregates\.n\.where: too expensive: estimated cost [\d,]+ exceeds the limit/),
    ]);
  });
});

describe("regular expressions are RE2", () => {
  it("refuses a pattern RE2 does not accept, with its position and the reason", () => {
    expect(validateRuleExpressions(rule("transaction.actionType.matches('(a)\\\\1')"))).toEqual([
      "condition: 1:32: invalid regular expression (RE2 syntax): invalid escape sequence: `\\1`",
    ]);
    expect(validateRuleExpressions(rule("transaction.actionType.matches('x(?=y)')"))[0]).toMatch(
      /invalid regular expression \(RE2 syntax\): invalid or unsupported Perl syntax: `\(\?=`/,
    );
    expect(validateRuleExpressions(rule("transaction.actionType.matches('(a')"))[0]).toMatch(
      /missing closing \)/,
    );
  });

  it("accepts patterns that backtrack in JavaScript: RE2 matches them in linear time", () => {
    expect(validateRuleExpressions(rule("transaction.actionType.matches('^(a+)+$')"))).toEqual([]);
    expect(validateRuleExpressions(rule("transaction.actionType.matches('(?i)^cash[-_ ]?out$')"))).toEqual(
      [],
    );
  });
});
