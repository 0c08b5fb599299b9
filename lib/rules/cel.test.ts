import { describe, expect, it } from "vitest";
import {
  compileCondition,
  compileWhere,
  evaluateCondition,
  matchesWhere,
  referencedAggregates,
  validateRuleExpressions,
} from "@/lib/rules/cel";
import { DEMO_RULES } from "@/lib/rules/demo-rules";
import type { TRuleDefinition } from "@/lib/rules/schemas";
import { SANCTIONS_RULES } from "@/lib/sanctions/demo-sanctions";

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
      /unknown variable account \(a transaction rule may use transaction, user, merchant, aggregates\)/,
    );
    // `transaction` is not a variable of a user (onboarding) rule
    expect(
      validateRuleExpressions(rule({ subject: "user", condition: "transaction.amount > 1" }))[0],
    ).toMatch(/unknown variable transaction/);
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
    expect(errors).toEqual(["condition: 1:21: aggregates.m is not defined by the rule"]);
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
    expect(errors).toEqual([
      "aggregates.n.where: 1:1: unknown variable user (a where filter over transaction may use transaction)",
    ]);
  });

  it("checks fields and types against the subject's declarations, with position and suggestion", () => {
    const check = (condition: string, overrides: Partial<TRuleDefinition> = {}) =>
      validateRuleExpressions(rule({ condition, ...overrides }));
    expect(check("transaction.amout >= 10000")).toEqual([
      "condition: 1:13: unknown field transaction.amout; did you mean amount?",
    ]);
    expect(check('transaction.amount >= "10000"')).toEqual([
      'condition: 1:1: type mismatch in transaction.amount >= "10000": no operator double >= string',
    ]);
    // every unknown field is reported, nested ones with their full path
    expect(check("transaction.card.binCountri == 'IR' || user.stauts == 'blocked'")).toEqual([
      "condition: 1:18: unknown field transaction.card.binCountri; did you mean binCountry?",
      "condition: 1:45: unknown field user.stauts; did you mean status?",
    ]);
    expect(check("transacton.amount > 1")[0]).toMatch(
      /^condition: 1:1: unknown variable transacton; did you mean transaction\?/,
    );
    expect(check("sanctionScore(user.firstName) > 0.9")).toEqual([
      "condition: 1:1: unknown function sanctionScore(); did you mean sanctionsScore?",
    ]);
    expect(check("inList(1, transaction.amount)")).toEqual([
      "condition: 1:1: wrong arguments: inList(int, double); expected inList(string, dyn): bool",
    ]);
    // declared for the lists and currency work: baseAmount (optional), inList, sanctionsScore
    expect(check("transaction.?baseAmount.orValue(0.0) >= 50000")).toEqual([]);
    expect(check('inList("blocked-emails", user.?email.?email.orValue(""))')).toEqual([]);
    expect(check("sanctionsScore(user.firstName + ' ' + user.lastName, user.dateOfBirth) > 0.9")).toEqual([]);
    // a field the request may send as null compares with null
    expect(check("transaction.userDeviceId == null || transaction.userDeviceId == 'd-1'")).toEqual([]);
    // free-form maps, list macros and bare has() stay usable
    expect(check("transaction.recipients.exists(r, r.amount > 5) && has(merchant)")).toEqual([]);
    // aggregate paths are fields of the history row they read; sum needs a number
    expect(
      check("aggregates.a > 1", {
        aggregates: {
          a: { function: "sum", over: "transaction", groupBy: "usrId", window: "1h", field: "currencyCode" },
        },
      }),
    ).toEqual([
      "aggregates.a.groupBy: unknown field transaction.usrId; did you mean userId?",
      "aggregates.a.field: transaction.currencyCode is a string; sum, avg, min and max need a number",
    ]);
    expect(
      check("aggregates.v > 1", {
        aggregates: {
          v: { function: "sum", over: "transaction", groupBy: "userId", window: "1h", field: "baseAmount" },
        },
      }),
    ).toEqual([]);
  });

  it("accepts every demo rule", () => {
    for (const demo of [...DEMO_RULES, ...SANCTIONS_RULES])
      expect([demo.id, validateRuleExpressions(demo)]).toEqual([demo.id, []]);
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
