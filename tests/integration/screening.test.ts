import { beforeAll, describe, expect, it } from "vitest";
import * as eventRoute from "@/app/v1/event/route";
import * as merchantRoute from "@/app/v1/merchantRequest/route";
import * as instrumentRoute from "@/app/v1/paymentInstrument/route";
import * as instrumentByIdRoute from "@/app/v1/paymentInstrument/[id]/route";
import * as transactionRoute from "@/app/v1/transaction/route";
import * as transactionByIdRoute from "@/app/v1/transaction/[id]/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import * as onboardRoute from "@/app/v1/user/onboard/route";
import { prisma } from "@/lib/db";
import { importRules } from "@/lib/rules/import-rules";
import { call, createTestClient } from "@/tests/factories";

const HOUR = 3_600_000;
let seq = 0;
const uid = (p: string) => `${p}-${Date.now().toString(36)}-${++seq}`;

function rule(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: `Rule ${id}`,
    subject: "transaction",
    status: "active",
    riskLevel: "high",
    recommendedAction: "REVIEW",
    reason: `reason ${id}`,
    condition: "transaction.amount > 1000",
    ...overrides,
  };
}

async function subscribe(clientId: string, events: string[]) {
  await prisma.webhookSubscription.create({
    data: { clientId, url: "http://127.0.0.1:9/hook", events, secretEncrypted: "unused-in-this-test" },
  });
}

const deliveries = (clientId: string, eventType: string) =>
  prisma.webhookDelivery.findMany({ where: { clientId, eventType } });

describe("transaction screening outcomes", () => {
  it("answers n/a / ALLOW with no active transaction rule, and stores the decision", async () => {
    const { apiKey, clientId } = await createTestClient();
    await importRules({
      clientId,
      rules: [rule("DRAFT", { status: "draft" }), rule("U1", { subject: "user", condition: "true" })],
    });
    const id = uid("t");
    const res = await call(transactionRoute.POST, {
      apiKey,
      body: {
        id,
        userId: "u1",
        status: "APPROVED",
        currencyCode: "USD",
        amount: 5000,
        timestamp: Date.now() - 1000,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      transactionId: id,
      status: "APPROVED",
      riskLevel: "n/a",
      recommendedAction: "ALLOW",
      triggered: [],
      timestamp: expect.any(Number),
    });
    const stored = await prisma.transaction.findUniqueOrThrow({ where: { clientId_id: { clientId, id } } });
    expect(stored.decisionId).toBeTruthy();
    const decision = await prisma.decision.findUniqueOrThrow({ where: { id: stored.decisionId! } });
    expect(decision).toMatchObject({ subjectType: "transaction", subjectId: id, riskLevel: "n/a" });
  });

  it("answers low / ALLOW when active rules run and none fires", async () => {
    const { apiKey, clientId } = await createTestClient();
    await importRules({ clientId, rules: [rule("BIG")] });
    const res = await call(transactionRoute.POST, {
      apiKey,
      body: {
        id: uid("t"),
        userId: "u1",
        status: "PENDING",
        currencyCode: "USD",
        amount: 10,
        timestamp: Date.now() - 1000,
      },
    });
    expect(res.body).toMatchObject({ riskLevel: "low", recommendedAction: "ALLOW", triggered: [] });
  });

  it("takes the highest level, breaks ties by action severity, and keeps dry-run and muted hits out", async () => {
    const { apiKey, clientId } = await createTestClient();
    await subscribe(clientId, ["transaction.screened", "alert.created"]);
    await importRules({
      clientId,
      rules: [
        rule("MED", { riskLevel: "medium", recommendedAction: "BLOCK" }),
        rule("HIGH-REVIEW", { riskLevel: "high", recommendedAction: "REVIEW" }),
        rule("HIGH-STEPUP", { riskLevel: "high", recommendedAction: "STEP_UP_ID" }),
        rule("DRY", { status: "dry-run", riskLevel: "very_high", recommendedAction: "BLOCK" }),
        rule("MUTE", { status: "muted", riskLevel: "very_high", recommendedAction: "BLOCK" }),
        rule("OFF", { status: "inactive", riskLevel: "very_high", recommendedAction: "BLOCK" }),
        rule("ARCH", { status: "archived", riskLevel: "very_high", recommendedAction: "BLOCK" }),
      ],
    });
    const id = uid("t");
    const res = await call(transactionRoute.POST, {
      apiKey,
      body: {
        id,
        userId: "u1",
        status: "PENDING",
        currencyCode: "USD",
        amount: 5000,
        timestamp: Date.now() - 1000,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.riskLevel).toBe("high");
    expect(res.body.recommendedAction).toBe("STEP_UP_ID");
    expect(res.body.triggered.map((t: { id: string }) => t.id).sort()).toEqual([
      "HIGH-REVIEW",
      "HIGH-STEPUP",
      "MED",
    ]);
    expect(res.body.triggered[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      level: expect.any(String),
      reason: expect.any(String),
      recommendedAction: expect.any(String),
    });

    const alerts = await prisma.alert.findMany({ where: { clientId, transactionId: id } });
    expect(alerts.map((a) => a.ruleId).sort()).toEqual(["HIGH-REVIEW", "HIGH-STEPUP", "MED"]);
    expect((await deliveries(clientId, "alert.created")).length).toBe(3);
    const screened = await deliveries(clientId, "transaction.screened");
    expect(screened).toHaveLength(1);
    const envelope = JSON.parse(screened[0]!.body);
    expect(envelope).toMatchObject({
      event: "transaction.screened",
      payload: { id, riskLevel: "high", recommendedAction: "STEP_UP_ID", timestamp: res.body.timestamp },
    });
    expect(JSON.stringify(envelope)).not.toMatch(/DRY|MUTE/);

    const stored = await prisma.transaction.findUniqueOrThrow({ where: { clientId_id: { clientId, id } } });
    const decision = await prisma.decision.findUniqueOrThrow({ where: { id: stored.decisionId! } });
    const evaluated = decision.evaluated as { ruleId: string; status: string; triggered: boolean }[];
    expect(
      evaluated
        .filter((e) => e.triggered)
        .map((e) => e.ruleId)
        .sort(),
    ).toEqual(["DRY", "HIGH-REVIEW", "HIGH-STEPUP", "MED", "MUTE"]);
    expect(evaluated.map((e) => e.ruleId)).not.toContain("OFF");
    expect(evaluated.map((e) => e.ruleId)).not.toContain("ARCH");
  });

  it("returns the stored answer for an identical resubmission and re-screens a changed one", async () => {
    const { apiKey, clientId } = await createTestClient();
    await subscribe(clientId, ["transaction.screened", "alert.created"]);
    await importRules({ clientId, rules: [rule("BIG")] });
    const body = {
      id: uid("t"),
      userId: "u1",
      status: "PENDING",
      currencyCode: "USD",
      amount: 5000,
      timestamp: Date.now() - 1000,
    };
    const first = await call(transactionRoute.POST, { apiKey, body });
    const again = await call(transactionRoute.POST, { apiKey, body: { ...body, unknownField: "ignored" } });
    expect(again.body).toEqual(first.body);
    expect(await prisma.alert.count({ where: { clientId } })).toBe(1);
    expect((await deliveries(clientId, "transaction.screened")).length).toBe(1);
    expect(await prisma.decision.count({ where: { clientId } })).toBe(1);

    const changed = await call(transactionRoute.POST, { apiKey, body: { ...body, amount: 10 } });
    expect(changed.body).toMatchObject({ id: body.id, riskLevel: "low", triggered: [] });
    expect(await prisma.transaction.count({ where: { clientId } })).toBe(1);
    expect((await deliveries(clientId, "transaction.screened")).length).toBe(2);

    const read = await call(transactionByIdRoute.GET, { apiKey, params: { id: body.id } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(changed.body);
  });

  it("counts payouts in a 24h window: fires on the fourth, not on one 25h later, and counts a resubmission once", async () => {
    const { apiKey, clientId } = await createTestClient();
    await importRules({
      clientId,
      rules: [
        rule("VELOCITY", {
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
    const base = Date.now() - 30 * HOUR;
    const payout = (i: number, at: number) => ({
      id: `p-${i}`,
      userId: "velo",
      status: "APPROVED",
      currencyCode: "EUR",
      amount: 50,
      direction: "payout",
      timestamp: at,
    });
    const levels: string[] = [];
    for (let i = 0; i < 3; i++)
      levels.push(
        (await call(transactionRoute.POST, { apiKey, body: payout(i, base + i * 60_000) })).body.riskLevel,
      );
    // a resubmission of the third must not count twice
    levels.push(
      (await call(transactionRoute.POST, { apiKey, body: payout(2, base + 2 * 60_000) })).body.riskLevel,
    );
    // a payin does not count
    await call(transactionRoute.POST, {
      apiKey,
      body: { ...payout(99, base + 3 * 60_000), direction: "payin" },
    });
    expect(levels).toEqual(["low", "low", "low", "low"]);
    const fourth = await call(transactionRoute.POST, { apiKey, body: payout(3, base + 4 * 60_000) });
    expect(fourth.body.riskLevel).toBe("high");
    expect(fourth.body.triggered.map((t: { id: string }) => t.id)).toEqual(["VELOCITY"]);
    const later = await call(transactionRoute.POST, {
      apiKey,
      body: payout(4, base + 4 * 60_000 + 25 * HOUR),
    });
    expect(later.body.riskLevel).toBe("low");
  });

  it("stores an inline user and merchant and exposes the stored user to rules", async () => {
    const { apiKey, clientId } = await createTestClient();
    await importRules({
      clientId,
      rules: [
        rule("BLOCKED-USER", {
          condition: "has(user.status) && user.status == 'blocked'",
          riskLevel: "very_high",
          recommendedAction: "BLOCK",
        }),
      ],
    });
    const user = { id: uid("u"), timestamp: Date.now() - 10_000, firstName: "Ana", status: "BLOCKED" };
    const res = await call(transactionRoute.POST, {
      apiKey,
      body: {
        id: uid("t"),
        user,
        merchant: { id: "m-1", name: "Shop", timestamp: Date.now() - 10_000 },
        status: "PENDING",
        currencyCode: "USD",
        amount: 1,
        timestamp: Date.now() - 1000,
      },
    });
    expect(res.body).toMatchObject({ riskLevel: "very_high", recommendedAction: "BLOCK" });
    expect(await prisma.user.findUnique({ where: { clientId_id: { clientId, id: user.id } } })).toMatchObject(
      { status: "blocked", firstName: "Ana" },
    );
    expect(
      await prisma.merchant.findUnique({ where: { clientId_id: { clientId, id: "m-1" } } }),
    ).toMatchObject({ name: "Shop" });
  });

  it("updates status with history and re-screens with monitoring", async () => {
    const plain = await createTestClient();
    const body = {
      id: uid("t"),
      userId: "u1",
      status: "PENDING",
      currencyCode: "USD",
      amount: 5,
      timestamp: Date.now() - 1000,
    };
    await call(transactionRoute.POST, { apiKey: plain.apiKey, body });
    const upd = await call(updateRoute.POST, {
      apiKey: plain.apiKey,
      body: { transactionId: body.id, status: "DECLINED", reason: "R01", isFraudulent: true },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ status: "Success" });
    const row = await prisma.transaction.findUniqueOrThrow({
      where: { clientId_id: { clientId: plain.clientId, id: body.id } },
    });
    expect(row).toMatchObject({ status: "DECLINED", isFraud: true });
    expect(
      await prisma.transactionUpdate.count({ where: { clientId: plain.clientId, transactionId: body.id } }),
    ).toBe(2);

    const monitored = await createTestClient({ features: ["transactionUpdateMonitoring"] });
    await importRules({
      clientId: monitored.clientId,
      rules: [rule("CARD", { condition: "has(transaction.card) && transaction.card.binCountry == 'KP'" })],
    });
    await call(transactionRoute.POST, { apiKey: monitored.apiKey, body });
    const rescreened = await call(updateRoute.POST, {
      apiKey: monitored.apiKey,
      body: {
        transactionId: body.id,
        transaction: { paymentMethod: "card", card: { binCountry: "KP", cardFingerprint: "fp" } },
      },
    });
    expect(rescreened.status).toBe(200);
    expect(rescreened.body).toMatchObject({
      id: body.id,
      riskLevel: "high",
      recommendedAction: "REVIEW",
      triggered: [expect.objectContaining({ id: "CARD" })],
    });
    const again = await call(updateRoute.POST, {
      apiKey: monitored.apiKey,
      body: { transactionId: body.id, status: "APPROVED" },
    });
    expect(again.body.riskLevel).toBe("high");
    expect(
      await prisma.alert.count({ where: { clientId: monitored.clientId, transactionId: body.id } }),
    ).toBe(1);
  });

  it("isolates clients: another client's transaction is 404", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const body = {
      id: uid("t"),
      userId: "u1",
      status: "PENDING",
      currencyCode: "USD",
      amount: 5,
      timestamp: Date.now() - 1000,
    };
    await call(transactionRoute.POST, { apiKey: a.apiKey, body });
    expect((await call(transactionByIdRoute.GET, { apiKey: b.apiKey, params: { id: body.id } })).status).toBe(
      404,
    );
    const missing = await call(transactionByIdRoute.GET, { apiKey: a.apiKey, params: { id: "nope" } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.details).toEqual(["/id: Transaction not found"]);
    expect(
      (
        await call(updateRoute.POST, {
          apiKey: b.apiKey,
          body: { transactionId: body.id, status: "DECLINED" },
        })
      ).status,
    ).toBe(404);
  });
});

describe("other screenings", () => {
  let consumer: { apiKey: string; clientId: string };
  let business: { apiKey: string; clientId: string };
  beforeAll(async () => {
    consumer = await createTestClient({
      type: "consumer",
      features: ["merchantRiskAssessment", "eventRules", "paymentInstrumentRules", "walletVerification"],
    });
    business = await createTestClient({ type: "business", features: ["merchantRiskAssessment"] });
  });

  it("onboards a user with user rules and emits user.screened", async () => {
    await subscribe(consumer.clientId, ["user.screened"]);
    await importRules({
      clientId: consumer.clientId,
      rules: [
        rule("NO-DOB", {
          subject: "user",
          condition: "!has(user.dateOfBirth)",
          riskLevel: "medium",
          recommendedAction: "STEP_UP_KYC",
        }),
      ],
    });
    const id = uid("u");
    const res = await call(onboardRoute.POST, {
      apiKey: consumer.apiKey,
      body: { id, timestamp: Date.now() - 1000, firstName: "Li" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      riskLevel: "medium",
      recommendedAction: "STEP_UP_KYC",
      triggered: [
        {
          id: "NO-DOB",
          name: "Rule NO-DOB",
          level: "medium",
          reason: "reason NO-DOB",
          recommendedAction: "STEP_UP_KYC",
        },
      ],
      timestamp: expect.any(Number),
    });
    const d = await deliveries(consumer.clientId, "user.screened");
    expect(JSON.parse(d[0]!.body).payload).toMatchObject({ id, riskLevel: "medium" });
  });

  it("screens merchants for business clients only, with the feature, and validates dependent pairs", async () => {
    const merchant = { id: uid("m"), name: "Bakery", timestamp: Date.now() - 1000 };
    const forbidden = await call(merchantRoute.POST, { apiKey: consumer.apiKey, body: merchant });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.type).toBe("FORBIDDEN");
    const noFeature = await createTestClient({ type: "business" });
    expect((await call(merchantRoute.POST, { apiKey: noFeature.apiKey, body: merchant })).status).toBe(403);

    const ok = await call(merchantRoute.POST, { apiKey: business.apiKey, body: merchant });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: merchant.id, riskLevel: "n/a", recommendedAction: "ALLOW" });

    for (const [body, detail] of [
      [{ ...merchant, limits: { transactionLimit: 100 } }, /^\/limits\/limitCurrencyCode: /],
      [{ ...merchant, cashbackRate: 5 }, /^\/cashbackRate: /],
      [{ ...merchant, settlementType: "T+1" }, /^\/settlementType: /],
      [{ ...merchant, timestamp: Date.now() + 86_400_000 }, /^\/timestamp: /],
      [{ ...merchant, averagePurchaseSize: "1,000" }, /^\/averagePurchaseSize: /],
    ] as const) {
      const res = await call(merchantRoute.POST, { apiKey: business.apiKey, body });
      expect(res.status).toBe(400);
      expect(res.body.error.details.some((d: string) => detail.test(d))).toBe(true);
    }
  });

  it("links instruments: low/ALLOW without instrument rules, wallet verification, GET with empty triggered", async () => {
    const off = await createTestClient();
    const body = {
      status: "linked",
      paymentInstrument: { id: uid("pi"), userId: "u1", method: "card", card: { fingerprint: "fp1" } },
    };
    const res = await call(instrumentRoute.PUT, { apiKey: off.apiKey, body, method: "PUT" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: body.paymentInstrument.id,
      riskLevel: "low",
      recommendedAction: "ALLOW",
      triggered: [],
      timestamp: expect.any(Number),
    });

    const userId = uid("u");
    await call(onboardRoute.POST, {
      apiKey: consumer.apiKey,
      body: { id: userId, timestamp: Date.now() - 1000, taxNumberId: "123", phone: { phone: "+4470000" } },
    });
    await importRules({
      clientId: consumer.clientId,
      rules: [
        rule("UNLINK", {
          subject: "paymentInstrument",
          condition: "paymentInstrument.status == 'unlinked'",
          riskLevel: "medium_low",
          recommendedAction: "FLAG_FOR_MONITORING",
        }),
      ],
    });
    const wallet = {
      status: "unlinked",
      paymentInstrument: {
        id: uid("w"),
        userId,
        method: "wallet",
        wallet: { taxNumberId: "123", phone: "+4499999" },
      },
    };
    const screened = await call(instrumentRoute.PUT, {
      apiKey: consumer.apiKey,
      body: wallet,
      method: "PUT",
    });
    expect(screened.body).toMatchObject({
      riskLevel: "medium_low",
      recommendedAction: "FLAG_FOR_MONITORING",
      walletVerification: { status: "mismatch", checks: { taxNumberId: "match", phone: "mismatch" } },
    });
    const read = await call(instrumentByIdRoute.GET, {
      apiKey: consumer.apiKey,
      params: { id: wallet.paymentInstrument.id },
    });
    expect(read.body).toMatchObject({
      riskLevel: "medium_low",
      triggered: [],
      walletVerification: { status: "mismatch" },
    });
    expect(
      (
        await call(instrumentByIdRoute.GET, {
          apiKey: off.apiKey,
          params: { id: wallet.paymentInstrument.id },
        })
      ).status,
    ).toBe(404);
    const missing = await call(instrumentRoute.GET, { apiKey: off.apiKey });
    expect(missing.status).toBe(400);
    const bad = await call(instrumentRoute.PUT, {
      apiKey: off.apiKey,
      method: "PUT",
      body: { status: "gone", paymentInstrument: { id: "x" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/status: /), "/paymentInstrument/userId: Required"]),
    );
    const instrument = { id: uid("pi"), userId: "u1" };
    for (const [body, detail] of [
      [{ paymentInstrument: instrument }, "/status: Required"],
      [{ status: "linked" }, "/paymentInstrument: Required"],
      [{ status: "linked", paymentInstrument: { userId: "u1" } }, "/paymentInstrument/id: Required"],
      [
        { status: "linked", paymentInstrument: instrument, timestamp: Date.now() + 86_400_000 },
        "/timestamp: Timestamp must not be in the future",
      ],
      [
        { status: "linked", paymentInstrument: { ...instrument, method: "cheque" } },
        /^\/paymentInstrument\/method: /,
      ],
      [
        { status: "linked", paymentInstrument: { ...instrument, card: { isDigitalWallet: "yes" } } },
        "/paymentInstrument/card/isDigitalWallet: Expected boolean",
      ],
    ] as const) {
      const res = await call(instrumentRoute.PUT, { apiKey: off.apiKey, method: "PUT", body });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("VALIDATION_ERROR");
      const details: string[] = res.body.error.details;
      expect(
        typeof detail === "string" ? details.includes(detail) : details.some((d) => detail.test(d)),
      ).toBe(true);
    }
    expect(
      await prisma.paymentInstrument.count({ where: { clientId: off.clientId, id: instrument.id } }),
    ).toBe(0);
  });

  it("stores events with lowercased type and method; screens them with event rules", async () => {
    const off = await createTestClient();
    const body = { id: uid("e"), type: "LOGIN_Failed", method: "WEB", userId: "u1" };
    const stored = await call(eventRoute.POST, { apiKey: off.apiKey, body });
    expect(stored.body).toEqual({ id: body.id, status: "success" });
    expect(
      await prisma.event.findUnique({ where: { clientId_id: { clientId: off.clientId, id: body.id } } }),
    ).toMatchObject({ type: "login_failed", method: "web" });

    await importRules({
      clientId: consumer.clientId,
      rules: [
        rule("FAILED-LOGINS", {
          subject: "event",
          condition: "event.type == 'login_failed' && aggregates.fails > 2",
          aggregates: {
            fails: {
              function: "count",
              over: "event",
              groupBy: "userId",
              window: "1h",
              where: "event.type == 'login_failed'",
            },
          },
        }),
      ],
    });
    const levels: string[] = [];
    for (let i = 0; i < 3; i++)
      levels.push(
        (
          await call(eventRoute.POST, {
            apiKey: consumer.apiKey,
            body: { id: uid("e"), type: "LOGIN_FAILED", userId: "u-ev" },
          })
        ).body.riskLevel,
      );
    expect(levels).toEqual(["low", "low", "high"]);
  });

  it("rejects events without a subject, with two forms of one subject, or with bad timestamps", async () => {
    for (const [body, detail] of [
      [{ id: "e1", type: "x" }, "/: Expected union value"],
      [{ id: "e1", type: "x", userId: "u", user: { id: "u", timestamp: Date.now() - 1 } }, /^\/user: /],
      [
        { id: "e1", type: "x", merchantId: "m", merchant: { id: "m", name: "n", timestamp: Date.now() - 1 } },
        /^\/merchant: /,
      ],
      [{ id: "e1", type: "x", userId: "u", timestamp: 1.5 }, /^\/timestamp: /],
      [{ id: "e1", type: "x", userId: "u", timestamp: Date.now() + 86_400_000 }, /^\/timestamp: /],
      [{ id: "e1", type: "", userId: "u" }, /^\/type: /],
      [{ id: "e1", type: "x", userId: "u", reference: "" }, /^\/reference: /],
    ] as const) {
      const res = await call(eventRoute.POST, { apiKey: consumer.apiKey, body });
      expect(res.status).toBe(400);
      const details: string[] = res.body.error.details;
      expect(
        typeof detail === "string" ? details.includes(detail) : details.some((d) => detail.test(d)),
      ).toBe(true);
    }
    expect(await prisma.event.count({ where: { id: "e1" } })).toBe(0);
  });
});
