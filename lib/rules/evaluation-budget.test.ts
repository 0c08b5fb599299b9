import { describe, expect, it } from "vitest";
import { compileCondition, compileWhere, evaluateCondition, matchesWhere } from "@/lib/rules/cel";
import { RULE_STEP_LIMIT, RuleBudgetError, withinBudget } from "@/lib/rules/evaluation-budget";
import { QUADRATIC_OVER_RECIPIENTS } from "@/tests/support/hostile-rules";

const BUDGET = /^evaluation budget exceeded: (more than 50,000 comprehension steps|took longer than 100 ms)$/;

function run(condition: string, transaction: Record<string, unknown>) {
  return evaluateCondition("transaction", compileCondition("transaction", condition), { transaction }, {});
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected an error");
}

// 1,000 recipients: one million steps for a quadratic rule, twenty times the budget
const recipients = Array.from({ length: 1_000 }, (_, i) => ({ amount: i }));

describe("runtime budget per evaluation", () => {
  it("stops a quadratic rule over a large request list with a budget error", () => {
    const err = thrown(() => run(QUADRATIC_OVER_RECIPIENTS, { recipients }));
    expect(err).toBeInstanceOf(RuleBudgetError);
    expect(err.message).toMatch(BUDGET);
    expect(RULE_STEP_LIMIT).toBe(50_000);
    // the same rule over a short list runs to its answer
    expect(run(QUADRATIC_OVER_RECIPIENTS, { recipients: recipients.slice(0, 30) })).toBe(true);
  });

  it.each([
    ["all", "transaction.recipients.all(b, a.amount + b.amount >= 0.0)"],
    ["exists", "transaction.recipients.exists(b, a.amount + b.amount < 0.0) || true"],
    ["exists_one", "transaction.recipients.exists_one(b, a.amount + b.amount < 0.0) || true"],
    ["map", "size(transaction.recipients.map(b, a.amount + b.amount)) > 0"],
    ["filter", "size(transaction.recipients.filter(b, b.amount >= 0.0)) > 0"],
  ])("counts the steps of %s", (_macro, inner) => {
    expect(thrown(() => run(`transaction.recipients.all(a, ${inner})`, { recipients })).message).toMatch(
      BUDGET,
    );
  });

  it("reports the budget even where CEL would swallow the error (`error || true` is true)", () => {
    expect(thrown(() => run(`${QUADRATIC_OVER_RECIPIENTS} || true`, { recipients })).message).toMatch(BUDGET);
  });

  it("gives every evaluation a fresh budget", () => {
    const compiled = compileCondition("transaction", "transaction.recipients.all(a, a.amount >= 0.0)");
    const tx = { transaction: { recipients: recipients.slice(0, 900) } };
    // 60 evaluations of 900 steps: more than one budget in total, each within its own
    for (let i = 0; i < 60; i++) expect(evaluateCondition("transaction", compiled, tx, {})).toBe(true);
  });

  it("shares one budget across the rows of a where filter's window", () => {
    const where = compileWhere("transaction", "transaction.recipients.all(r, r.amount >= 0.0)");
    const rows = Array.from({ length: 100 }, () => ({ recipients }));
    // each row alone is within a budget; the window is not
    expect(rows.every((row) => matchesWhere("transaction", where, row))).toBe(true);
    const err = thrown(() =>
      withinBudget(() => rows.filter((row) => matchesWhere("transaction", where, row))),
    );
    expect(err).toBeInstanceOf(RuleBudgetError);
    expect(err.message).toMatch(BUDGET);
  });
});

describe("matches runs RE2", () => {
  it("answers a backtracking pattern on a long input (JavaScript's RegExp would not return)", () => {
    const condition = "transaction.actionType.matches('^(a+)+$')";
    expect(run(condition, { actionType: `${"a".repeat(24)}!` })).toBe(false);
    expect(run(condition, { actionType: `${"a".repeat(5_000)}!` })).toBe(false);
    expect(run(condition, { actionType: "a".repeat(5_000) })).toBe(true);
  });

  it("keeps CEL's semantics: an unanchored search, RE2 flags", () => {
    expect(run("transaction.actionType.matches('cash')", { actionType: "p2p-cashout" })).toBe(true);
    expect(run("transaction.actionType.matches('^cash')", { actionType: "p2p-cashout" })).toBe(false);
    expect(run("transaction.actionType.matches('(?i)CASH')", { actionType: "p2p-cashout" })).toBe(true);
  });

  it("makes a pattern from the data that RE2 refuses an evaluation error", () => {
    expect(
      thrown(() =>
        run("transaction.actionType.matches(transaction.provider)", { actionType: "aa", provider: "(a)\\1" }),
      ).message,
    ).toBe('invalid regular expression "(a)\\\\1": invalid escape sequence: `\\1`');
  });
});
