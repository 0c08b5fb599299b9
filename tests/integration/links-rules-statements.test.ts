// links.* in rules (docs/decisions.md §14) through the API: what fires and when, the values recorded on the
// decision and shown in the explanation, and the cost: one statement more per screening when a live
// rule calls links.*, none otherwise (counted at pg.Client#query, API key read included).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma, SESSION_SETUP } from "@/lib/db";
import { NOTIFY_STATEMENT } from "@/lib/jobs/wake";
import { importRules } from "@/lib/rules/import-rules";
import { explainDecision } from "@/lib/transactions/get-transaction-detail";
import { call, createTestClient } from "@/tests/factories";
import * as transactionRoute from "@/app/v1/transaction/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import * as userRoute from "@/app/v1/user/route";
import * as onboardRoute from "@/app/v1/user/onboard/route";
import * as blockRoute from "@/app/v1/users/[userId]/block/route";
import * as merchantRoute from "@/app/v1/merchantRequest/route";

const DAY = 86_400_000;
const original = pg.Client.prototype.query;
let statements = 0;

type TRuleSpec = [id: string, subject: string, condition: string];

async function rules(clientId: string, specs: TRuleSpec[]) {
  await importRules({
    clientId,
    rules: specs.map(([id, subject, condition]) => ({
      id,
      name: `Rule ${id}`,
      subject,
      status: "active",
      riskLevel: "high",
      recommendedAction: "REVIEW",
      reason: "linked",
      condition,
    })),
  });
}

describe("links.* in rules", () => {
  let apiKey: string;
  let clientId: string;
  const now = Date.now();

  const tx = async (id: string, body: Record<string, unknown>) => {
    const res = await call(transactionRoute.POST, {
      apiKey,
      body: { id, status: "APPROVED", currencyCode: "USD", amount: 10, timestamp: now - 60_000, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.triggered as Array<{ id: string }>).map((t) => t.id).sort();
  };
  const device = (fp: string) => ({
    id: `dev-${fp}-${Math.random().toString(36).slice(2, 8)}`,
    fingerprint: fp,
  });

  beforeAll(async () => {
    ({ apiKey, clientId } = await createTestClient({ name: "Links rules" }));
    await rules(clientId, [
      ["L-DEV", "transaction", 'links.count("deviceFingerprint") >= 2'],
      ["L-DEV30", "transaction", 'links.count("deviceFingerprint", "30d") >= 2'],
      ["L-BLOCKED", "transaction", "links.blockedCount() >= 1"],
      ["L-FRAUD", "transaction", "links.fraudCount() >= 1"],
      ["L-PHONE", "user", 'links.count("phone") >= 1'],
    ]);
  });

  it('links.count("deviceFingerprint") >= 2 fires exactly from the second linked user on', async () => {
    expect(await tx("a1", { userId: "ua", userDevice: device("fp-1") })).toEqual([]);
    expect(await tx("b1", { userId: "ub", userDevice: device("fp-1") })).toEqual([]);
    // the screened transaction's own device counts before it is stored
    expect(await tx("c1", { userId: "uc", userDevice: device("fp-1") })).toEqual(["L-DEV", "L-DEV30"]);
    // ua's stored device links it to ub and uc, with no device on this transaction
    expect(await tx("a2", { userId: "ua" })).toEqual(["L-DEV", "L-DEV30"]);
    // another fingerprint, and the same user sending twice, link nobody
    expect(await tx("d1", { userId: "ud", userDevice: device("fp-2") })).toEqual([]);
    expect(await tx("d2", { userId: "ud", userDevice: device("fp-2") })).toEqual([]);
    // the values used are on the decision and in the explanation
    const stored = await prisma.transaction.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "c1" } },
    });
    const explained = await explainDecision({ clientId, decisionId: stored.decisionId! });
    const fired = explained!.fired.find((r) => r.ruleId === "L-DEV")!;
    expect(fired.links).toEqual({ 'links.count("deviceFingerprint")': 2 });
    expect(explained!.notFired.find((r) => r.ruleId === "L-BLOCKED")!.links).toEqual({
      "links.blockedCount()": 0,
    });
  });

  it("the window counts only uses within it, on both sides", async () => {
    for (const [id, user] of [
      ["o1", "uo1"],
      ["o2", "uo2"],
    ] as const)
      await tx(id, { userId: user, userDevice: device("fp-old"), timestamp: now - 60 * DAY });
    expect(await tx("n1", { userId: "un", userDevice: device("fp-old") })).toEqual(["L-DEV"]);
    // one of them uses it again today: one recent link is still not two
    await tx("o3", { userId: "uo1", userDevice: device("fp-old") });
    expect(await tx("n2", { userId: "un" })).toEqual(["L-DEV"]);
    await tx("o4", { userId: "uo2", userDevice: device("fp-old"), timestamp: now - 2 * DAY });
    expect(await tx("n3", { userId: "un" })).toEqual(["L-DEV", "L-DEV30"]);
  });

  it("blockedCount counts linked users blocked now", async () => {
    for (const id of ["ubl1", "ubl2"])
      await call(userRoute.POST, {
        apiKey,
        body: { id, timestamp: now - DAY, email: { email: "Shared@Example.com" } },
      });
    expect(await tx("bl1", { userId: "ubl1" })).toEqual([]);
    const blocked = await call(blockRoute.PUT, { method: "PUT", apiKey, params: { userId: "ubl2" } });
    expect(blocked.status).toBe(200);
    expect(await tx("bl2", { userId: "ubl1" })).toEqual(["L-BLOCKED"]);
  });

  it("fraudCount counts linked users with a transaction confirmed as fraud", async () => {
    const bank = { paymentMethod: "bank", bank: { accountNumber: "DE00 1111 2222" } };
    await tx("fr1", { userId: "ufr1", ...bank });
    expect(await tx("fr2", { userId: "ufr2", ...bank })).toEqual([]);
    const update = await call(updateRoute.POST, {
      apiKey,
      body: { transactionId: "fr1", isFraudulent: true },
    });
    expect(update.status, JSON.stringify(update.body)).toBe(200);
    expect(await tx("fr3", { userId: "ufr2" })).toEqual(["L-FRAUD"]);
  });

  it("works for user screenings, and a value over the fan-out cap links nobody", async () => {
    const onboard = async (id: string) => {
      const res = await call(onboardRoute.POST, {
        apiKey,
        body: { id, timestamp: now - 1000, phone: { phone: "+1 555 0100" } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.triggered as Array<{ id: string }>).map((t) => t.id);
    };
    expect(await onboard("p1")).toEqual([]);
    expect(await onboard("p2")).toEqual(["L-PHONE"]);
    // three users hold the phone now: over a cap of 2 it links nobody, for rules as for the API
    await prisma.client.update({ where: { id: clientId }, data: { linkFanOutCap: 2 } });
    expect(await onboard("p3")).toEqual([]);
    // fp-1 has three users too (ua, ub, uc): capped, it no longer links uc to anyone
    expect(await tx("cap1", { userId: "uc" })).toEqual([]);
    await prisma.client.update({ where: { id: clientId }, data: { linkFanOutCap: 50 } });
  });

  it("merchant rules cannot use links.*", async () => {
    await expect(rules(clientId, [["M-LINK", "merchant", 'links.count("phone") > 0']])).rejects.toThrow(
      /links\.\* is not available to merchant rules/,
    );
  });
});

describe("statements: one more only when a live rule calls links.*", () => {
  const clients = {} as Record<"plain" | "links", { apiKey: string; clientId: string }>;

  beforeAll(async () => {
    clients.plain = await createTestClient({
      name: "No links rules",
      type: "business",
      features: ["merchantRiskAssessment"],
    });
    clients.links = await createTestClient({
      name: "Links rules",
      type: "business",
      features: ["merchantRiskAssessment"],
    });
    await rules(clients.plain.clientId, [
      ["T", "transaction", "transaction.amount > 1000000"],
      ["U", "user", "user.status == 'blocked'"],
    ]);
    await rules(clients.links.clientId, [
      ["T", "transaction", 'transaction.amount > 1000000 || links.count("deviceFingerprint") >= 1'],
      ["U", "user", 'links.count("email", "7d") >= 1 || links.blockedCount() > 0'],
    ]);
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      // a new pooled connection's session setup is not the screening's
      // nor is the job drivers' NOTIFY after a write's commit (at most one per 50 ms per process, on the
      // background pool: lib/jobs/wake.ts)
      if (args[0] !== SESSION_SETUP && args[0] !== NOTIFY_STATEMENT) statements++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
  });

  afterAll(() => {
    pg.Client.prototype.query = original;
  });

  async function counted(route: typeof transactionRoute.POST, apiKey: string, body: unknown) {
    statements = 0;
    const res = await call(route, { apiKey, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { n: statements, triggered: (res.body.triggered as Array<{ id: string }>).map((t) => t.id) };
  }

  it("POST /v1/transaction and POST /v1/user/onboard", async () => {
    const now = Date.now();
    const t = (id: string, user: string) => ({
      id,
      userId: user,
      status: "APPROVED",
      currencyCode: "USD",
      amount: 5,
      timestamp: now - 1000,
      userDevice: { id: `d-${id}`, fingerprint: "fp-stmt" },
    });
    const u = (id: string) => ({ id, timestamp: now - 1000, email: { email: "same@stmt.test" } });
    const counts: Record<string, Array<{ n: number; triggered: string[] }>> = { plain: [], links: [] };
    for (const which of ["plain", "links"] as const) {
      const { apiKey } = clients[which];
      // the first request of a key in this process reads the configuration: not counted
      await counted(transactionRoute.POST, apiKey, t("warm", "w"));
      await counted(onboardRoute.POST, apiKey, u("warm"));
      counts[which]!.push(await counted(transactionRoute.POST, apiKey, t("t1", "x1")));
      counts[which]!.push(await counted(transactionRoute.POST, apiKey, t("t2", "x2")));
      counts[which]!.push(await counted(onboardRoute.POST, apiKey, u("v1")));
    }
    expect(counts.plain).toEqual([
      { n: 2, triggered: [] },
      { n: 2, triggered: [] },
      { n: 2, triggered: [] },
    ]);
    expect(counts.links).toEqual([
      { n: 3, triggered: ["T"] },
      { n: 3, triggered: ["T"] },
      { n: 3, triggered: ["U"] },
    ]);
    // a merchant screening at the client with links rules reads nothing for them
    const merchant = await counted(merchantRoute.POST, clients.links.apiKey, {
      id: "m1",
      name: "Shop",
      timestamp: now - 1000,
    });
    expect(merchant.n).toBe(2);
  });
});
