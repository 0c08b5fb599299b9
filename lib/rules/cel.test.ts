import { describe, expect, it } from "vitest";
import {
  compileCondition,
  compileWhere,
  evaluateCondition,
  matchesWhere,
  referencedAggregates,
  validateRuleExpressions,
} from "@/lib/rules/cel";
import type { TRuleDefinition } from "@/lib/rules/schemas";

function rule(overrides: Partial<TRuleDefinition>): TRuleDefinition {
  return {
    id: "R1",
    name: "Rule",
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "because",
    condition: "transaction.amount > 1000",
    ...overrides,
  };
}

function run(
  condition: string,
  variables: Record<string, unknown>,
  aggregates: Record<string, number | null> = {},
) {
  return evaluateCondition("transaction", compileCondition("transaction", condition), variables, aggregates);
}

describe("compile and validate", () => {
  it("accepts a valid rule", () => {
    expect(validateRuleExpressions(rule({}))).toEqual([]);
  });

  it("rejects a syntax error with the reason", () => {
    const errors = validateRuleExpressions(rule({ condition: "transaction.amount >" }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^condition: Syntax error/);
  });

  it("rejects a variable unknown for the subject", () => {
    expect(validateRuleExpressions(rule({ condition: "account.balance > 1" }))[0]).toMatch(
      /Unknown variable: account.*may use transaction, user, merchant, aggregates/,
    );
    // `transaction` is not a variable of a user (onboarding) rule
    expect(
      validateRuleExpressions(rule({ subject: "user", condition: "transaction.amount > 1" }))[0],
    ).toMatch(/Unknown variable: transaction/);
    expect(validateRuleExpressions(rule({ subject: "user", condition: "user.status == 'blocked'" }))).toEqual(
      [],
    );
  });

  it("rejects an aggregate reference the rule does not define", () => {
    const errors = validateRuleExpressions(
      rule({
        condition: "aggregates.n > 3 && aggregates['m'] > 1",
        aggregates: { n: { function: "count", over: "transaction", groupBy: "userId", window: "24h" } },
      }),
    );
    expect(errors).toEqual(["condition: aggregates.m is not defined by the rule"]);
  });

  it("rejects a non-bool condition and a bad where filter", () => {
    expect(validateRuleExpressions(rule({ condition: "'x' + 'y'" }))[0]).toMatch(/must be a bool/);
    const errors = validateRuleExpressions(
      rule({
        condition: "aggregates.n > 1",
        aggregates: {
          n: {
            function: "count",
            over: "transaction",
            groupBy: "userId",
            window: "1h",
            where: "user.x == 1",
          },
        },
      }),
    );
    expect(errors).toEqual([expect.stringMatching(/^aggregates.n.where: Unknown variable: user/)]);
  });

  it("lists referenced aggregates", () => {
    const ast = compileCondition("transaction", "aggregates.a > 1 || aggregates['b'] > 2").ast;
    expect(referencedAggregates(ast)).toEqual(["a", "b"]);
  });
});

describe("evaluation", () => {
  it("compares JSON numbers with int and double literals", () => {
    expect(run("transaction.amount > 1000", { transaction: { amount: 1000.5 } })).toBe(true);
    expect(run("transaction.amount > 1000", { transaction: { amount: 5000 } })).toBe(true);
    expect(run("transaction.amount > 1000", { transaction: { amount: 1000 } })).toBe(false);
    expect(run("transaction.amount == 1000", { transaction: { amount: 1000 } })).toBe(true);
    expect(run("transaction.amount >= 999.5", { transaction: { amount: 1000 } })).toBe(true);
    expect(run("transaction.amount in [1000, 2000]", { transaction: { amount: 2000 } })).toBe(true);
    expect(run("transaction.amount * 2 > 3000", { transaction: { amount: 1600 } })).toBe(true);
    expect(run("1 + transaction.amount == 2.5", { transaction: { amount: 1.5 } })).toBe(true);
  });

  it("compares aggregate values with int literals", () => {
    expect(run("aggregates.n > 3", {}, { n: 4 })).toBe(true);
    expect(run("aggregates.n > 3", {}, { n: 3 })).toBe(false);
  });

  it("binds an absent stored record as empty: has() is false", () => {
    expect(run("has(merchant.id)", { transaction: {} })).toBe(false);
    expect(run("has(merchant)", { transaction: {} })).toBe(false);
    expect(run("has(merchant) && merchant.status == 'blocked'", { transaction: {} })).toBe(false);
    expect(run("has(merchant)", { transaction: {}, merchant: { id: "m1" } })).toBe(true);
    expect(run("merchant.?status.orValue('') == 'blocked'", { transaction: {} })).toBe(false);
    expect(run("user.status == 'blocked'", { transaction: {}, user: { status: "blocked" } })).toBe(true);
  });

  it("throws on a runtime error (missing key, null comparison) and on a non-bool result", () => {
    expect(() => run("merchant.status == 'blocked'", { transaction: {} })).toThrow(/No such key/);
    expect(() => run("aggregates.avg > 3", {}, { avg: null })).toThrow();
    expect(() => run("transaction.flag", { transaction: { flag: "yes" } })).toThrow(/expected a bool/);
  });

  it("evaluates where filters on history rows, errors counting as no match", () => {
    const where = compileWhere("transaction", "transaction.direction == 'payout' && transaction.amount > 10");
    expect(matchesWhere("transaction", where, { direction: "payout", amount: 11 })).toBe(true);
    expect(matchesWhere("transaction", where, { direction: "payin", amount: 11 })).toBe(false);
    expect(matchesWhere("transaction", where, { amount: 11 })).toBe(false);
  });
});
