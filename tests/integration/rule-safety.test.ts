import { beforeAll, describe, expect, it, vi } from "vitest";

// A rule cannot stop the shared server: a static cost bound refused wherever a rule is checked
// (validate, save, import, publish), a runtime budget per evaluation recorded on the decision like any
// evaluation error, backtests that leave the process to other requests, and only admins publish.

const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));
// Observes (does not replace) the backtest's evaluations: how many ran before another request was answered.
const probe = vi.hoisted(() => ({ evaluations: 0, onFirst: null as null | (() => void) }));
vi.mock("@/lib/screening/run-rules", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/screening/run-rules")>();
  return {
    ...actual,
    evaluateRules: (...args: Parameters<typeof actual.evaluateRules>) => {
      if (probe.evaluations++ === 0) probe.onFirst?.();
      return actual.evaluateRules(...args);
    },
  };
});

const { POST: postTransaction } = await import("@/app/v1/transaction/route");
const { GET: getRules } = await import("@/app/v1/rules/route");
const { POST: createRuleRoute } = await import("@/app/dashboard-api/rules/route");
const { POST: validateRoute } = await import("@/app/dashboard-api/rules/validate/route");
const { POST: publishRoute } = await import("@/app/dashboard-api/rules/[ruleId]/publish/route");
const { publishRule } = await import("@/lib/admin/change-rule-status");
const { saveRule } = await import("@/lib/admin/save-rule");
const { validateRuleDraft } = await import("@/lib/admin/validate-rule-draft");
const { continueBacktest, startBacktest } = await import("@/lib/backtest/run-backtest");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { prisma } = await import("@/lib/db");
const { importRules } = await import("@/lib/rules/import-rules");
const { RuleImportError } = await import("@/lib/rules/validate-rule");
const { call, createTestClient } = await import("@/tests/factories");
const { expectContractError } = await import("@/tests/support/fuzz-routes");
const { nestedComprehensions, QUADRATIC_OVER_RECIPIENTS } = await import("@/tests/support/hostile-rules");

type TUser = { id: string; clientId: string; email: string; name: null; role: "admin" | "reviewer" };

const COST_REFUSAL = /too expensive: estimated cost [\d,]+ exceeds the limit of 100,000 evaluation steps/;
const BUDGET = /^evaluation budget exceeded: (more than 50,000 comprehension steps|took longer than 100 ms)$/;
const THREE_LEVELS = nestedComprehensions(3, 120);
const FIVE_LEVELS = nestedComprehensions(5, 100);

let a: { clientId: string; apiKey: string };
let b: { clientId: string; apiKey: string };
let admin: TUser;
let reviewer: TUser;

function definition(id: string, condition: string, status = "dry-run") {
  return {
    id,
    name: `Rule ${id}`,
    subject: "transaction",
    status,
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: "hostile",
    condition,
  };
}

async function dashboardUser(clientId: string, role: TUser["role"]): Promise<TUser> {
  const email = `${role}-${clientId}@safety.test`;
  const { userId } = await createDashboardUser({ clientId, email, password: "correct horse battery", role });
  return { id: userId, clientId, email, name: null, role };
}

function as(user: TUser) {
  session.current = { user: { id: user.id } };
}

async function rejected(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (err: unknown) => err,
  );
}

function transaction(id: string, recipients: number) {
  return {
    id,
    userId: "u-1",
    status: "PENDING",
    currencyCode: "EUR",
    amount: 10,
    timestamp: Date.now() - 60_000,
    recipients: Array.from({ length: recipients }, (_, i) => ({ id: `r-${i}`, amount: i })),
  };
}

beforeAll(async () => {
  a = await createTestClient({ name: "safety-a" });
  b = await createTestClient({ name: "safety-b" });
  admin = await dashboardUser(a.clientId, "admin");
  reviewer = await dashboardUser(a.clientId, "reviewer");
});

describe("static cost bound", () => {
  it("refuses the hostile conditions at validation, naming the estimated cost and the limit", async () => {
    for (const condition of [THREE_LEVELS, FIVE_LEVELS]) {
      const result = await validateRuleDraft(reviewer, { definition: definition("HOSTILE", condition) });
      expect(result.valid).toBe(false);
      expect(result.errors).toEqual([{ field: "condition", message: expect.stringMatching(COST_REFUSAL) }]);
    }
    as(reviewer);
    const res = await call(validateRoute, { body: { definition: definition("HOSTILE", FIVE_LEVELS) } });
    expect(res.status).toBe(200);
    expect(res.body.errors[0].message).toMatch(/estimated cost 130,404,040,402 exceeds the limit of 100,000/);
  });

  it("refuses them on save (400 in the contract body) and on import; nothing is written", async () => {
    as(reviewer);
    const res = await call(createRuleRoute, { body: { definition: definition("HOSTILE", THREE_LEVELS) } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "VALIDATION_ERROR", message: "Request validation failed" });
    expect(res.body.error.details).toEqual([expect.stringMatching(COST_REFUSAL)]);

    const err = await rejected(
      importRules({ clientId: a.clientId, rules: [definition("HOSTILE", FIVE_LEVELS, "active")] }),
    );
    expect(err).toBeInstanceOf(RuleImportError);
    expect((err as InstanceType<typeof RuleImportError>).errors).toEqual([
      {
        ruleId: "HOSTILE",
        message: expect.stringMatching(
          /^condition: too expensive: estimated cost [\d,]+ exceeds the limit of 100,000/,
        ),
      },
    ]);
    // an invalid RE2 pattern is refused the same way
    const regex = await call(createRuleRoute, {
      body: { definition: definition("REGEX", "transaction.actionType.matches('(a)\\\\1')") },
    });
    expect(regex.status).toBe(400);
    expect(regex.body.error.details).toEqual([
      "condition: 1:32: invalid regular expression (RE2 syntax): invalid escape sequence: `\\1`",
    ]);
    expect(await prisma.rule.count({ where: { clientId: a.clientId } })).toBe(0);
  });

  it("refuses to publish a stored version over the bound (saved before the bound existed)", async () => {
    await saveRule(admin, { definition: definition("OLD", "transaction.amount > 1.0") });
    const rule = await prisma.rule.findFirstOrThrow({ where: { clientId: a.clientId, ruleId: "OLD" } });
    await prisma.ruleVersion.update({
      where: { ruleRef_version: { ruleRef: rule.id, version: 1 } },
      data: { condition: THREE_LEVELS },
    });
    as(admin);
    const res = await call(publishRoute, {
      params: { ruleId: "OLD" },
      body: { version: 1, status: "dry-run", note: "publish the old version" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "VALIDATION_ERROR", message: "Request validation failed" });
    expect(res.body.error.details).toEqual([expect.stringMatching(COST_REFUSAL)]);
    const after = await prisma.rule.findUniqueOrThrow({ where: { id: rule.id } });
    expect([after.status, after.liveVersion]).toEqual(["draft", null]);
  });
});

describe("only admins publish", () => {
  it("answers a reviewer's publish with 403, in every status, and changes nothing", async () => {
    await saveRule(reviewer, { definition: definition("TRIAL", "transaction.amount > 5.0") });
    as(reviewer);
    for (const status of ["dry-run", "muted", "active"]) {
      const res = await call(publishRoute, {
        params: { ruleId: "TRIAL" },
        body: { version: 1, status, note: "n" },
      });
      expect(res.status).toBe(403);
      expectContractError(res, `reviewer publishes ${status}`);
    }
    expect(
      await prisma.rule.findFirstOrThrow({ where: { clientId: a.clientId, ruleId: "TRIAL" } }),
    ).toMatchObject({ status: "draft", liveVersion: null });
    await publishRule(admin, { ruleId: "TRIAL", version: 1, status: "dry-run" });
    expect(
      await prisma.rule.findFirstOrThrow({ where: { clientId: a.clientId, ruleId: "TRIAL" } }),
    ).toMatchObject({ status: "dry-run", liveVersion: 1 });
  });
});

describe("runtime budget", () => {
  it("stops a rule within the bound that runs long on a large request, and records the error", async () => {
    const c = await createTestClient({ name: "safety-runtime" });
    await importRules({ clientId: c.clientId, rules: [definition("QUADRATIC", QUADRATIC_OVER_RECIPIENTS)] });

    const small = await call(postTransaction, { apiKey: c.apiKey, body: transaction("t-small", 20) });
    expect(small.status).toBe(200);
    const large = await call(postTransaction, { apiKey: c.apiKey, body: transaction("t-large", 1_000) });
    expect(large.status).toBe(200);
    expect(large.body.triggered).toEqual([]);

    const evaluated = async (subjectId: string) =>
      (
        await prisma.decision.findFirstOrThrow({
          where: { clientId: c.clientId, subjectType: "transaction", subjectId },
        })
      ).evaluated as Array<{ ruleId: string; triggered: boolean; error?: string }>;
    expect(await evaluated("t-small")).toEqual([
      expect.objectContaining({ ruleId: "QUADRATIC", triggered: true }),
    ]);
    const [record] = await evaluated("t-large");
    expect(record).toMatchObject({
      ruleId: "QUADRATIC",
      triggered: false,
      error: expect.stringMatching(BUDGET),
    });
  });

  it("a backtest of such a rule records the errors and leaves the process to an unrelated request", async () => {
    const c = await createTestClient({ name: "safety-backtest" });
    const cAdmin = await dashboardUser(c.clientId, "admin");
    const from = Date.now() - 3_600_000;
    for (let i = 0; i < 16; i++) {
      const res = await call(postTransaction, { apiKey: c.apiKey, body: transaction(`h-${i}`, 1_000) });
      expect(res.status).toBe(200);
    }
    await saveRule(cAdmin, { definition: definition("QUADRATIC", QUADRATIC_OVER_RECIPIENTS) });
    const run = await startBacktest(cAdmin, { ruleId: "QUADRATIC", from, to: Date.now() + 60_000 });
    expect(run).toMatchObject({ total: 16, state: "running" });

    // another tenant's request, started when the batch evaluates its first item, is answered while
    // the batch goes on (evaluation is synchronous: without yielding it would wait for all 16)
    let other: Promise<{ status: number }> | undefined;
    let evaluatedWhenAnswered = -1;
    probe.evaluations = 0;
    probe.onFirst = () => {
      other = call(getRules, { apiKey: b.apiKey }).then((res) => {
        evaluatedWhenAnswered = probe.evaluations;
        return res;
      });
    };
    const view = await continueBacktest(cAdmin, { runId: run.id, batchSize: 16 });
    probe.onFirst = null;
    expect((await other!).status).toBe(200);
    expect(probe.evaluations).toBe(view.processed);
    expect(evaluatedWhenAnswered).toBeGreaterThan(0);
    expect(evaluatedWhenAnswered).toBeLessThan(view.processed);

    let last = view;
    while (last.state === "running") last = await continueBacktest(cAdmin, { runId: run.id, batchSize: 16 });
    expect(last).toMatchObject({ state: "done", processed: 16, draftErrors: 16, draftHits: 0 });
    expect(last.firstError).toMatch(BUDGET);
  });
});
