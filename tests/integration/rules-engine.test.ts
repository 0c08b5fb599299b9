import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { GET as listRulesRoute } from "@/app/v1/rules/route";
import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { compileWhere } from "@/lib/rules/cel";
import { exportRules } from "@/lib/rules/export-rules";
import { importRules, RuleImportError } from "@/lib/rules/import-rules";
import { setRuleStatus } from "@/lib/rules/set-rule-status";
import type { TRuleDefinition } from "@/lib/rules/schemas";
import { aggregateKey, computeAggregates } from "@/lib/screening/aggregates";
import { sqlParams, translateWhere } from "@/lib/screening/cel-sql";
import { openAlerts } from "@/tests/oracle/open-alerts";
import { replayDecision } from "@/lib/screening/replay-decision";
import { runRules } from "@/tests/oracle/run-rules";
import { call, createTestClient } from "@/tests/factories";

const HOUR = 3_600_000;
const T0 = Date.now() - 10 * 24 * HOUR;

function rule(overrides: Partial<TRuleDefinition> & { id: string }): TRuleDefinition {
  return {
    name: `Rule ${overrides.id}`,
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: `reason of ${overrides.id}`,
    condition: "transaction.amount > 1000",
    ...overrides,
  };
}

type TTx = { id: string; userId?: string; amount: number; at: number; data?: Record<string, unknown> };

/** Stores a transaction row as the screening endpoint would (idempotent on id). */
async function storeTransaction(clientId: string, t: TTx) {
  const data: Record<string, unknown> = {
    id: t.id,
    userId: t.userId ?? "u1",
    amount: t.amount,
    timestamp: t.at,
    currencyCode: "EUR",
    status: "PENDING",
    ...t.data,
  };
  const row = {
    userId: t.userId ?? "u1",
    status: "PENDING",
    direction: (data.direction as string | undefined) ?? null,
    currencyCode: "EUR",
    amount: t.amount,
    occurredAt: new Date(t.at),
    data: data as Prisma.InputJsonObject,
    bodyHash: "h",
    riskLevel: "n/a",
    recommendedAction: "ALLOW",
    assessedAt: new Date(),
  };
  // replaced as a whole: Prisma's upsert is an ON CONFLICT on (clientId, id), which the partitioned table has
  // no unique index for (transaction_keys keeps it)
  await prisma.$transaction([
    prisma.transaction.deleteMany({ where: { clientId, id: t.id } }),
    prisma.transaction.create({ data: { clientId, id: t.id, ...row } }),
  ]);
  return data;
}

async function screen(clientId: string, t: TTx, extra: Record<string, unknown> = {}) {
  const data = await storeTransaction(clientId, t);
  return prisma.$transaction((tx) =>
    runRules(tx, {
      clientId,
      subject: "transaction",
      subjectId: t.id,
      timestamp: t.at,
      variables: {
        transaction: data,
        user: { id: data.userId, status: "active", createdAt: T0 - 100 * 24 * HOUR },
        ...extra,
      },
    }),
  );
}

async function decisionOf(decisionId: string) {
  return prisma.decision.findUniqueOrThrow({ where: { id: decisionId } });
}

async function importError(clientId: string, rules: unknown): Promise<RuleImportError> {
  try {
    await importRules({ clientId, rules });
  } catch (err) {
    if (err instanceof RuleImportError) return err;
    throw err;
  }
  throw new Error("import did not fail");
}

describe("rule import and export", () => {
  it("round-trips the import format", async () => {
    const { clientId } = await createTestClient();
    const rules = [
      rule({ id: "A-LARGE", riskLevel: "very_high", recommendedAction: "BLOCK" }),
      rule({
        id: "B-VELOCITY",
        status: "dry-run",
        condition: "aggregates.payouts24h > 3",
        aggregates: {
          payouts24h: {
            function: "count",
            over: "transaction",
            groupBy: "userId",
            window: "24h",
            where: "transaction.direction == 'payout'",
          },
        },
      }),
      rule({ id: "C-ONBOARD", subject: "user", status: "draft", condition: "has(user.email) == false" }),
    ];
    expect(await importRules({ clientId, rules: { rules } })).toEqual({ imported: 3 });
    const exported = await exportRules({ clientId });
    expect(exported.rules).toEqual(rules);
    // re-importing the export is accepted as is
    expect(await importRules({ clientId, rules: exported })).toEqual({ imported: 3 });
  });

  it("creates a new immutable, live version on re-import; a status change keeps the version", async () => {
    const { clientId } = await createTestClient();
    await importRules({ clientId, rules: [rule({ id: "R1", riskLevel: "medium" })] });
    await importRules({ clientId, rules: [rule({ id: "R1", riskLevel: "very_high" })] });
    const stored = await prisma.rule.findUniqueOrThrow({
      where: { clientId_ruleId: { clientId, ruleId: "R1" } },
      include: { versions: { orderBy: { version: "asc" } } },
    });
    expect(stored.currentVersion).toBe(2);
    expect(stored.versions.map((v) => [v.version, v.riskLevel])).toEqual([
      [1, "medium"],
      [2, "very_high"],
    ]);

    expect(stored).toMatchObject({ liveVersion: 2, status: "active" });

    const muted = await prisma.$transaction((tx) =>
      setRuleStatus(tx, { clientId, ruleId: "R1", status: "muted" }),
    );
    // a status change keeps the live version (no new version)
    expect(muted).toMatchObject({
      from: { status: "active", liveVersion: 2 },
      to: { status: "muted", liveVersion: 2 },
    });
    expect((await exportRules({ clientId })).rules[0]).toMatchObject({
      id: "R1",
      status: "muted",
      riskLevel: "very_high",
    });
    expect(
      await prisma.$transaction((tx) => setRuleStatus(tx, { clientId, ruleId: "NOPE", status: "active" })),
    ).toBeNull();
  });

  it("imports nothing when any rule is invalid and names each bad rule", async () => {
    const { clientId } = await createTestClient();
    const err = await importError(clientId, [
      rule({ id: "GOOD" }),
      rule({ id: "SYNTAX", condition: "transaction.amount >" }),
      rule({ id: "UNKNOWN-VAR", condition: "account.balance > 1" }),
      rule({ id: "NO-AGG", condition: "aggregates.missing > 1" }),
      { ...rule({ id: "BAD-LEVEL" }), riskLevel: "extreme" },
      { name: "no id" },
      rule({ id: "GOOD" }),
    ]);
    const byRule: Record<string, { message: string }[]> = {};
    for (const e of err.errors) (byRule[e.ruleId] ??= []).push(e);
    expect(Object.keys(byRule).sort()).toEqual([
      "#5",
      "BAD-LEVEL",
      "GOOD",
      "NO-AGG",
      "SYNTAX",
      "UNKNOWN-VAR",
    ]);
    expect(byRule.SYNTAX![0]!.message).toMatch(/^condition: Syntax error/);
    expect(byRule["UNKNOWN-VAR"]![0]!.message).toMatch(/unknown variable account/);
    expect(byRule["NO-AGG"]![0]!.message).toBe(
      "condition: 1:12: aggregates.missing is not defined by the rule",
    );
    expect(byRule["BAD-LEVEL"]![0]!.message).toMatch(/^riskLevel:/);
    expect(byRule.GOOD![0]!.message).toMatch(/more than once/);
    expect(await prisma.rule.count({ where: { clientId } })).toBe(0);
    expect((await importError(clientId, { nope: 1 })).errors[0]!.ruleId).toBe("(file)");
  });

  it("rejects an action the client has not enabled and a variable unknown for the subject", async () => {
    const { clientId } = await createTestClient({ actions: ["ALLOW", "REVIEW"] });
    const err = await importError(clientId, [rule({ id: "BLOCKER", recommendedAction: "BLOCK" })]);
    expect(err.errors).toEqual([
      {
        ruleId: "BLOCKER",
        message: expect.stringMatching(/^recommendedAction: BLOCK is not enabled for this client/),
      },
    ]);
    const err2 = await importError(clientId, [
      rule({ id: "U1", subject: "user", condition: "transaction.amount > 5" }),
    ]);
    expect(err2.errors[0]!.message).toMatch(/unknown variable transaction.*may use user, aggregates/);
    expect(await importRules({ clientId, rules: [rule({ id: "OK" })] })).toEqual({ imported: 1 });
  });

  it("lists rules with their statuses on GET /v1/rules, per client only", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    await importRules({
      clientId: a.clientId,
      rules: [rule({ id: "R-ACTIVE" }), rule({ id: "R-MUTED", status: "muted", riskLevel: "low" })],
    });
    await importRules({ clientId: b.clientId, rules: [rule({ id: "R-B", status: "archived" })] });
    const res = await call(listRulesRoute, { apiKey: a.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.id, r.status, r.riskLevel, r.name])).toEqual([
      ["R-ACTIVE", "active", "high", "Rule R-ACTIVE"],
      ["R-MUTED", "muted", "low", "Rule R-MUTED"],
    ]);
    expect(typeof res.body[0].createdAt).toBe("number");
    const resB = await call(listRulesRoute, { apiKey: b.apiKey });
    expect(resB.body.map((r: any) => [r.id, r.status])).toEqual([["R-B", "archived"]]);
  });
});

describe("runRules", () => {
  it("answers n/a when no active rule exists for the subject", async () => {
    const { clientId } = await createTestClient();
    await importRules({
      clientId,
      rules: [
        rule({ id: "ONBOARD", subject: "user", condition: "true" }),
        rule({ id: "DRY", status: "dry-run", condition: "true" }),
      ],
    });
    const result = await screen(clientId, { id: "t1", amount: 5000, at: T0 });
    expect(result).toMatchObject({
      riskLevel: "n/a",
      recommendedAction: "ALLOW",
      triggered: [],
      firedActive: [],
    });
    const decision = await decisionOf(result.decisionId);
    expect(decision).toMatchObject({
      clientId,
      subjectType: "transaction",
      subjectId: "t1",
      riskLevel: "n/a",
    });
    expect((decision.evaluated as any[]).map((e) => [e.ruleId, e.status, e.triggered])).toEqual([
      ["DRY", "dry-run", true],
    ]);
  });

  it("answers low/ALLOW when active rules run and none fire", async () => {
    const { clientId } = await createTestClient();
    await importRules({ clientId, rules: [rule({ id: "LARGE", recommendedAction: "BLOCK" })] });
    const result = await screen(clientId, { id: "t1", amount: 1000, at: T0 });
    expect(result).toMatchObject({ riskLevel: "low", recommendedAction: "ALLOW", triggered: [] });
  });

  it("takes the highest level, breaks ties by action, and keeps dry-run/muted hits out of the answer", async () => {
    const { clientId } = await createTestClient();
    await importRules({
      clientId,
      rules: [
        rule({ id: "MED-BLOCK", riskLevel: "medium", recommendedAction: "BLOCK", condition: "true" }),
        rule({
          id: "HIGH-REVIEW",
          riskLevel: "high",
          recommendedAction: "REVIEW",
          condition: "transaction.amount > 1000",
        }),
        rule({
          id: "HIGH-STEPUP",
          riskLevel: "high",
          recommendedAction: "STEP_UP_AUTH",
          condition: "transaction.amount > 1000",
        }),
        rule({
          id: "HIGH-MSG",
          riskLevel: "high",
          recommendedAction: "MESSAGE_USER",
          condition: "transaction.amount > 1000",
        }),
        rule({
          id: "DRY-VH",
          status: "dry-run",
          riskLevel: "very_high",
          recommendedAction: "BLOCK",
          condition: "true",
        }),
        rule({
          id: "MUTED-VH",
          status: "muted",
          riskLevel: "very_high",
          recommendedAction: "BLOCK",
          condition: "true",
        }),
        rule({
          id: "INACTIVE",
          status: "inactive",
          riskLevel: "very_high",
          recommendedAction: "BLOCK",
          condition: "true",
        }),
        rule({
          id: "DRAFT",
          status: "draft",
          riskLevel: "very_high",
          recommendedAction: "BLOCK",
          condition: "true",
        }),
        rule({
          id: "ARCHIVED",
          status: "archived",
          riskLevel: "very_high",
          recommendedAction: "BLOCK",
          condition: "true",
        }),
      ],
    });
    const result = await screen(clientId, { id: "t1", amount: 1000.5, at: T0 });
    expect(result.riskLevel).toBe("high");
    expect(result.recommendedAction).toBe("STEP_UP_AUTH");
    expect(result.triggered).toEqual([
      {
        id: "HIGH-STEPUP",
        name: "Rule HIGH-STEPUP",
        level: "high",
        reason: "reason of HIGH-STEPUP",
        recommendedAction: "STEP_UP_AUTH",
      },
      {
        id: "HIGH-REVIEW",
        name: "Rule HIGH-REVIEW",
        level: "high",
        reason: "reason of HIGH-REVIEW",
        recommendedAction: "REVIEW",
      },
      {
        id: "HIGH-MSG",
        name: "Rule HIGH-MSG",
        level: "high",
        reason: "reason of HIGH-MSG",
        recommendedAction: "MESSAGE_USER",
      },
      {
        id: "MED-BLOCK",
        name: "Rule MED-BLOCK",
        level: "medium",
        reason: "reason of MED-BLOCK",
        recommendedAction: "BLOCK",
      },
    ]);
    expect(result.firedActive.map((f) => [f.id, f.status, f.version])).toEqual([
      ["HIGH-STEPUP", "active", 1],
      ["HIGH-REVIEW", "active", 1],
      ["HIGH-MSG", "active", 1],
      ["MED-BLOCK", "active", 1],
    ]);
    const evaluated = (await decisionOf(result.decisionId)).evaluated as any[];
    expect(evaluated.map((e) => [e.ruleId, e.status, e.triggered]).sort()).toEqual(
      [
        ["DRY-VH", "dry-run", true],
        ["HIGH-MSG", "active", true],
        ["HIGH-REVIEW", "active", true],
        ["HIGH-STEPUP", "active", true],
        ["MED-BLOCK", "active", true],
        ["MUTED-VH", "muted", true],
      ].sort(),
    );
    expect(evaluated[0]).toMatchObject({
      ruleRef: expect.any(String),
      versionId: expect.any(String),
      version: 1,
    });

    // a lower amount: only MED-BLOCK at medium
    const second = await screen(clientId, { id: "t2", amount: 1000, at: T0 });
    expect(second).toMatchObject({ riskLevel: "medium", recommendedAction: "BLOCK" });
  });

  it("records a runtime error on the decision without triggering", async () => {
    const { clientId } = await createTestClient();
    await importRules({
      clientId,
      rules: [
        rule({ id: "NEEDS-MERCHANT", riskLevel: "very_high", condition: "merchant.status == 'blocked'" }),
        rule({ id: "SAFE-MERCHANT", condition: "has(merchant) && merchant.status == 'blocked'" }),
      ],
    });
    const result = await screen(clientId, { id: "t1", amount: 10, at: T0 });
    expect(result).toMatchObject({ riskLevel: "low", recommendedAction: "ALLOW", triggered: [] });
    const evaluated = (await decisionOf(result.decisionId)).evaluated as any[];
    expect(evaluated.find((e) => e.ruleId === "NEEDS-MERCHANT")).toMatchObject({
      triggered: false,
      error: expect.stringMatching(/No such key: status/),
    });
    expect(evaluated.find((e) => e.ruleId === "SAFE-MERCHANT")).toMatchObject({ triggered: false });
    expect(evaluated.find((e) => e.ruleId === "SAFE-MERCHANT").error).toBeUndefined();

    const withMerchant = await screen(
      clientId,
      { id: "t2", amount: 10, at: T0 },
      { merchant: { id: "m1", status: "blocked" } },
    );
    expect(withMerchant.triggered.map((t) => t.id)).toEqual(["NEEDS-MERCHANT", "SAFE-MERCHANT"]);
  });

  it("fires a payout-velocity aggregate on the fourth payout in 24h, not 25h later, counting a resubmission once", async () => {
    const { clientId } = await createTestClient();
    await importRules({
      clientId,
      rules: [
        rule({
          id: "TX-PAYOUT-VELOCITY",
          condition: "transaction.direction == 'payout' && aggregates.payouts24h > 3",
          aggregates: {
            payouts24h: {
              function: "count",
              over: "transaction",
              groupBy: "userId",
              window: "24h",
              where: "transaction.direction == 'payout'",
            },
          },
        }),
      ],
    });
    const payout = (id: string, at: number, userId = "u1") => ({
      id,
      userId,
      amount: 50,
      at,
      data: { direction: "payout" },
    });
    // another user's payouts and this user's payins never count
    await storeTransaction(clientId, payout("other-1", T0 + 1, "u2"));
    await storeTransaction(clientId, payout("other-2", T0 + 2, "u2"));
    await storeTransaction(clientId, { id: "payin-1", amount: 50, at: T0 + 3, data: { direction: "payin" } });

    expect((await screen(clientId, payout("p1", T0))).riskLevel).toBe("low");
    expect((await screen(clientId, payout("p2", T0 + HOUR))).riskLevel).toBe("low");
    const third = await screen(clientId, payout("p3", T0 + 2 * HOUR));
    expect(third.riskLevel).toBe("low");
    // resubmitting p3 is still one row: three payouts
    const resubmitted = await screen(clientId, payout("p3", T0 + 2 * HOUR));
    expect(resubmitted.riskLevel).toBe("low");
    const versionId =
      resubmitted.firedActive[0]?.versionId ??
      (await prisma.ruleVersion.findFirstOrThrow({ where: { clientId } })).id;
    expect(((await decisionOf(resubmitted.decisionId)).aggregates as any)[versionId]).toEqual({
      payouts24h: 3,
    });

    const fourth = await screen(clientId, payout("p4", T0 + 3 * HOUR));
    expect(fourth).toMatchObject({ riskLevel: "high", recommendedAction: "REVIEW" });
    expect(fourth.triggered.map((t) => t.id)).toEqual(["TX-PAYOUT-VELOCITY"]);
    expect(((await decisionOf(fourth.decisionId)).aggregates as any)[versionId]).toEqual({ payouts24h: 4 });

    // 25h after the earlier ones: the window (T0+4h, T0+28h] holds this payout only
    const later = await screen(clientId, payout("p5", T0 + 3 * HOUR + 25 * HOUR));
    expect(later.riskLevel).toBe("low");
    expect(((await decisionOf(later.decisionId)).aggregates as any)[versionId]).toEqual({ payouts24h: 1 });

    // backfill: a payout screened at an old timestamp sees the history of its own window
    const backfill = await screen(clientId, payout("p0", T0 - 30 * 60_000));
    expect(((await decisionOf(backfill.decisionId)).aggregates as any)[versionId]).toEqual({ payouts24h: 1 });
  });

  it("computes where-filtered aggregates in SQL and in the JS fallback with the same numbers", async () => {
    const { clientId } = await createTestClient();
    const rows: TTx[] = [
      {
        id: "h1",
        amount: 100,
        at: T0 - 5 * HOUR,
        data: { direction: "payout", crypto: { address: "a1" }, card: { binCountry: "DE" } },
      },
      {
        id: "h2",
        amount: 250.5,
        at: T0 - 4 * HOUR,
        data: { direction: "payout", crypto: { address: "a2" }, card: { binCountry: "FR" } },
      },
      { id: "h3", amount: 9500, at: T0 - 3 * HOUR, data: { direction: "payout", crypto: { address: "a1" } } },
      { id: "h4", amount: 75, at: T0 - 2 * HOUR, data: { direction: "payin", crypto: { address: "a3" } } },
      { id: "h5", amount: 20, at: T0 - 30 * HOUR, data: { direction: "payout", crypto: { address: "a9" } } },
      {
        id: "h6",
        amount: 60,
        at: T0 - HOUR,
        data: { direction: "payout", flagged: true, crypto: { address: "a4" } },
      },
      { id: "h7", amount: 60, at: T0 - HOUR, userId: "u2", data: { direction: "payout" } },
      {
        id: "s",
        amount: 500,
        at: T0,
        data: { direction: "payout", crypto: { address: "a1" }, card: { binCountry: "DE" } },
      },
    ];
    for (const r of rows) await storeTransaction(clientId, r);

    const filters: Array<[string, string]> = [
      [
        "transaction.direction == 'payout' && transaction.amount >= 100",
        "transaction.direction.startsWith('payout') && transaction.amount >= 100",
      ],
      [
        "transaction.direction in ['payout'] && !(transaction.amount < 200) || transaction.amount == 75",
        "(transaction.direction == 'payout' && !(transaction.amount < 200) || transaction.amount == 75) && size(transaction.id) > 0",
      ],
      [
        "has(transaction.card.binCountry) && transaction.card.binCountry != 'FR'",
        "transaction.?card.?binCountry.orValue('FR') != 'FR'",
      ],
      ["transaction.flagged", "transaction.flagged == true && size('x') == 1"],
      [
        "transaction.crypto.address > 'a1' || transaction.status == 'PENDING' && transaction.amount <= 9500.0",
        "transaction.crypto.address > 'a1' || (transaction.status == 'PENDING' && transaction.amount <= 9500.0 && 1 + 1 == 2)",
      ],
    ];
    for (const [sqlFilter, jsFilter] of filters) {
      expect(
        translateWhere(compileWhere("transaction", sqlFilter).ast, "transaction", "t", sqlParams()),
      ).not.toBeNull();
      expect(
        translateWhere(compileWhere("transaction", jsFilter).ast, "transaction", "t", sqlParams()),
      ).toBeNull();
      const fns = [
        { function: "count" as const },
        { function: "sum" as const, field: "amount" },
        { function: "avg" as const, field: "amount" },
        { function: "min" as const, field: "amount" },
        { function: "max" as const, field: "amount" },
        { function: "countDistinct" as const, field: "crypto.address" },
      ];
      const requests = fns.flatMap((fn) =>
        [sqlFilter, jsFilter].map((where) => {
          const spec = { ...fn, over: "transaction" as const, groupBy: "userId", window: "24h", where };
          return { spec, where: compileWhere("transaction", where) };
        }),
      );
      const values = await prisma.$transaction((tx) =>
        computeAggregates(tx, {
          clientId,
          subject: "transaction",
          subjectId: "s",
          timestamp: T0,
          variables: {},
          aggregates: requests,
        }),
      );
      for (let i = 0; i < requests.length; i += 2) {
        const viaSql = values.get(aggregateKey(requests[i]!.spec));
        const viaJs = values.get(aggregateKey(requests[i + 1]!.spec));
        expect(viaSql, `${requests[i]!.spec.function} of ${sqlFilter}`).toEqual(viaJs);
        expect(viaSql).not.toHaveProperty("error");
      }
    }
    // spot-check one: payouts >= 100 in the window: h1, h2, h3, s
    const check = await prisma.$transaction((tx) =>
      computeAggregates(tx, {
        clientId,
        subject: "transaction",
        subjectId: "s",
        timestamp: T0,
        variables: {},
        aggregates: [
          {
            spec: {
              function: "sum",
              over: "transaction",
              groupBy: "userId",
              window: "24h",
              field: "amount",
              where: filters[0]![0],
            },
            where: compileWhere("transaction", filters[0]![0]),
          },
          {
            spec: {
              function: "avg",
              over: "transaction",
              groupBy: "accountId",
              window: "24h",
              field: "amount",
            },
          },
          { spec: { function: "count", over: "transaction", groupBy: "crypto.address", window: "30d" } },
        ],
      }),
    );
    expect([...check.values()]).toEqual([{ value: 100 + 250.5 + 9500 + 500 }, { value: null }, { value: 3 }]);
  });

  it("aggregates for a user subject group by the user id", async () => {
    const { clientId } = await createTestClient();
    await storeTransaction(clientId, { id: "x1", userId: "newbie", amount: 10, at: T0 - HOUR });
    await storeTransaction(clientId, { id: "x2", userId: "newbie", amount: 30, at: T0 - 2 * HOUR });
    const values = await prisma.$transaction((tx) =>
      computeAggregates(tx, {
        clientId,
        subject: "user",
        subjectId: "newbie",
        timestamp: T0,
        variables: { user: { id: "newbie" } },
        aggregates: [
          {
            spec: { function: "sum", over: "transaction", groupBy: "userId", window: "7d", field: "amount" },
          },
        ],
      }),
    );
    expect([...values.values()]).toEqual([{ value: 40 }]);
  });

  it("replays a stored decision with its recorded versions and aggregate values", async () => {
    const { clientId } = await createTestClient();
    await importRules({
      clientId,
      rules: [
        rule({
          id: "VELOCITY",
          riskLevel: "very_high",
          recommendedAction: "BLOCK",
          condition: "aggregates.n >= 2",
          aggregates: { n: { function: "count", over: "transaction", groupBy: "userId", window: "1h" } },
        }),
        rule({ id: "LARGE", condition: "transaction.amount > 100" }),
        rule({ id: "DRY", status: "dry-run", condition: "true" }),
      ],
    });
    await storeTransaction(clientId, { id: "r0", amount: 5, at: T0 - 60_000 });
    const result = await screen(clientId, { id: "r1", amount: 500, at: T0 });
    expect(result).toMatchObject({ riskLevel: "very_high", recommendedAction: "BLOCK" });

    // history and rules change afterwards; the replay still answers as at the time
    await prisma.transaction.deleteMany({ where: { clientId, id: "r0" } });
    await importRules({ clientId, rules: [rule({ id: "LARGE", condition: "false" })] });
    const replay = await replayDecision({ clientId, decisionId: result.decisionId });
    expect(replay).toMatchObject({
      riskLevel: "very_high",
      recommendedAction: "BLOCK",
      triggered: result.triggered,
      matchesStored: true,
    });
    const other = await createTestClient();
    expect(await replayDecision({ clientId: other.clientId, decisionId: result.decisionId })).toBeNull();
  });
});

describe("openAlerts", () => {
  it("opens one alert per (transaction, rule) and emits alert.created for new ones only", async () => {
    const { clientId } = await createTestClient();
    await prisma.webhookSubscription.create({
      data: { clientId, url: "https://example.test/hook", events: ["alert.created"], secretEncrypted: "x" },
    });
    await importRules({
      clientId,
      rules: [rule({ id: "A1", condition: "true" }), rule({ id: "A2", condition: "true", riskLevel: "low" })],
    });
    const first = await screen(clientId, { id: "t-alert", amount: 5, at: T0 });
    const open = (r: typeof first) =>
      prisma.$transaction((tx) =>
        openAlerts(tx, {
          clientId,
          transactionId: "t-alert",
          userId: "u1",
          decisionId: r.decisionId,
          fired: r.firedActive,
          at: T0,
        }),
      );
    expect(await open(first)).toBe(2);
    const again = await screen(clientId, { id: "t-alert", amount: 5, at: T0 });
    expect(await open(again)).toBe(0);
    const alerts = await prisma.alert.findMany({ where: { clientId }, orderBy: { ruleId: "asc" } });
    expect(alerts.map((a) => [a.transactionId, a.ruleId, a.level, a.status, a.decisionId])).toEqual([
      ["t-alert", "A1", "high", "open", first.decisionId],
      ["t-alert", "A2", "low", "open", first.decisionId],
    ]);
    const deliveries = await prisma.webhookDelivery.findMany({ where: { clientId } });
    expect(deliveries).toHaveLength(2);
    const payloads = deliveries
      .map((d) => JSON.parse(d.body))
      .sort((a, b) => a.payload.ruleId.localeCompare(b.payload.ruleId));
    expect(payloads[0]).toMatchObject({
      event: "alert.created",
      payload: {
        transactionId: "t-alert",
        ruleId: "A1",
        ruleName: "Rule A1",
        level: "high",
        reason: "reason of A1",
        recommendedAction: "REVIEW",
        alertedAt: T0,
      },
    });
  });
});

describe("rules CLI", () => {
  const run = promisify(execFile);
  const cli = (args: string[]) =>
    run("npx", ["tsx", "lib/cli/main.ts", ...args], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
    });

  it("imports a file and exports the rules as JSON on stdout; errors go to stderr with a non-zero exit", async () => {
    const { clientId } = await createTestClient();
    const dir = mkdtempSync(path.join(tmpdir(), "rules-cli-"));
    const file = path.join(dir, "rules.json");
    writeFileSync(
      file,
      JSON.stringify({ rules: [rule({ id: "CLI-1" }), rule({ id: "CLI-2", status: "muted" })] }),
    );
    const imported = await cli(["rules", "import", "--client", clientId, file]);
    expect(JSON.parse(imported.stdout)).toEqual({ imported: 2 });
    const exported = await cli(["rules", "export", "--client", clientId]);
    expect(JSON.parse(exported.stdout).rules.map((r: any) => [r.id, r.status])).toEqual([
      ["CLI-1", "active"],
      ["CLI-2", "muted"],
    ]);

    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify([rule({ id: "CLI-BAD", condition: "nope >" })]));
    const failure = await cli(["rules", "import", "--client", clientId, bad]).then(
      () => null,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failure?.code).not.toBe(0);
    expect(failure?.stdout).toBe("");
    expect(failure?.stderr).toMatch(/CLI-BAD: condition: Syntax error/);
    expect(await prisma.rule.count({ where: { clientId } })).toBe(2);

    // a typo and a type mismatch are import errors with position and suggestion; nothing changes
    const typo = path.join(dir, "typo.json");
    writeFileSync(
      typo,
      JSON.stringify([
        rule({ id: "CLI-1", condition: "transaction.amout >= 10000" }),
        rule({ id: "CLI-TYPE", condition: 'transaction.amount >= "10000"' }),
      ]),
    );
    const rejected = await cli(["rules", "import", "--client", clientId, typo]).then(
      () => null,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(rejected?.code).not.toBe(0);
    expect(rejected?.stdout).toBe("");
    expect(rejected?.stderr).toContain(
      "CLI-1: condition: 1:13: unknown field transaction.amout; did you mean amount?",
    );
    expect(rejected?.stderr).toContain(
      'CLI-TYPE: condition: 1:1: type mismatch in transaction.amount >= "10000": no operator double >= string',
    );
    const cli1 = await prisma.rule.findFirstOrThrow({ where: { clientId, ruleId: "CLI-1" } });
    expect(cli1).toMatchObject({ currentVersion: 1, liveVersion: 1 });
  }, 120_000);
});
