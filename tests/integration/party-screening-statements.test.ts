// Statements per user and merchant screening (a few statements instead of dozens): every
// statement sent to PostgreSQL by this process is counted at pg.Client#query, for the raw-SQL path
// (lib/screening/screen-user.ts, screen-merchant.ts) and for the Prisma path it replaced (kept for comparison).
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma, SESSION_SETUP } from "@/lib/db";
import { NOTIFY_STATEMENT } from "@/lib/jobs/wake";
import { ZMerchant } from "@/lib/merchants/schemas";
import { importRules } from "@/lib/rules/import-rules";
import { SANCTIONS_FIXTURES, SANCTIONS_RULES } from "@/lib/sanctions/demo-sanctions";
import { importSanctions } from "@/lib/sanctions/import-sanctions";
import { screenMerchant } from "@/lib/screening/screen-merchant";
import { screenUser } from "@/lib/screening/screen-user";
import { saveUser } from "@/lib/users/save-user";
import {
  saveUserPrisma,
  screenMerchantPrisma,
  screenUserPrisma,
} from "@/tests/oracle/party-screening-oracle";
import { ZUser } from "@/lib/users/schemas";
import * as merchantRoute from "@/app/v1/merchantRequest/route";
import * as onboardRoute from "@/app/v1/user/onboard/route";
import { call, createTestClient } from "@/tests/factories";

const original = pg.Client.prototype.query;
let statements = 0;
/** Runs (once) before the next write statement of a raw-SQL screening is sent. */
let beforeWrite: (() => Promise<void>) | null = null;

async function count(work: () => Promise<unknown>): Promise<number> {
  statements = 0;
  await work();
  return statements;
}

const aggregates = (groupBy: string) => ({
  n7d: { function: "count", over: "transaction", groupBy, window: "7d" },
  sum7d: { function: "sum", over: "transaction", groupBy, window: "7d", field: "amount" },
});

describe("statements per user and merchant screening", () => {
  let client: TClientContext;
  let apiKey: string;
  const counts: Record<string, number> = {};

  beforeAll(async () => {
    const created = await createTestClient({
      type: "business",
      features: ["merchantRiskAssessment"],
    });
    const clientId = created.clientId;
    apiKey = created.apiKey;
    await importRules({
      clientId,
      rules: [
        ["U-AGG", "user", "aggregates.n7d > 0 || aggregates.sum7d > 0", aggregates("userId")],
        ["U-STATUS", "user", "user.status == 'blocked'", {}],
        ["M-AGG", "merchant", "aggregates.n7d > 0 || aggregates.sum7d > 0", aggregates("merchantId")],
      ].map(([id, subject, condition, aggs]) => ({
        id,
        name: `Rule ${id}`,
        subject,
        status: "active",
        riskLevel: "high",
        recommendedAction: "REVIEW",
        reason: "r",
        condition,
        aggregates: aggs,
      })),
    });
    await prisma.webhookSubscription.create({
      data: {
        clientId,
        url: "http://127.0.0.1:9/hook",
        events: ["user.screened", "merchant.screened"],
        secretEncrypted: "unused-in-this-test",
      },
    });
    client = (await authenticateApiKey(apiKey))!;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      // a new pooled connection's session setup is not the screening's
      // nor is the job drivers' NOTIFY after a write's commit (at most one per 50 ms per process, on the
      // background pool: lib/jobs/wake.ts)
      if (args[0] !== SESSION_SETUP && args[0] !== NOTIFY_STATEMENT) statements++;
      const send = () => (original as (...a: unknown[]) => unknown).apply(this, args);
      const hook = beforeWrite;
      if (hook && typeof args[0] === "string" && args[0].includes("SELECT 1 / (SELECT count(*)")) {
        beforeWrite = null;
        return hook().then(send);
      }
      return send();
    } as typeof original;
    // the configuration cache is loaded once per client (not counted below)
    await screenUser({ client, body: ZUser.parse({ id: "warm", timestamp: Date.now() - 1000 }) });
  });

  afterAll(() => {
    pg.Client.prototype.query = original;
    console.log("statements per screening", counts);
  });

  const user = (id: string, extra: Record<string, unknown> = {}) =>
    ZUser.parse({
      id,
      firstName: "A",
      email: { email: `${id}@example.com` },
      phone: { phone: "+1 555 0100" },
      userDevice: { id: `dev-${id}`, ipAddress: "10.0.0.1" },
      timestamp: Date.now() - 60_000,
      ...extra,
    });
  const merchant = (id: string, name: string) =>
    ZMerchant.parse({ id, name, timestamp: Date.now() - 60_000, status: "active" });

  it("a user screening is one read and one write statement, new or stored, status changed or not", async () => {
    counts.userNewPrisma = await count(() => screenUserPrisma({ client, body: user("p1") }));
    counts.userUpdatePrisma = await count(() =>
      screenUserPrisma({ client, body: user("p1", { status: "blocked" }) }),
    );
    counts.userNew = await count(() => screenUser({ client, body: user("h1") }));
    counts.userUpdate = await count(() => screenUser({ client, body: user("h1", { status: "blocked" }) }));
    counts.userResend = await count(() => screenUser({ client, body: user("h1") }));
    expect([counts.userNew, counts.userUpdate, counts.userResend]).toEqual([2, 2, 2]);
    expect(counts.userNewPrisma).toBeGreaterThan(8);
  });

  it("saving a user without screening (POST /v1/user) is one read and one write statement", async () => {
    const clientId = client.id;
    counts.saveNewPrisma = await count(() => saveUserPrisma({ clientId, user: user("sp1") }));
    counts.saveUpdatePrisma = await count(() =>
      saveUserPrisma({ clientId, user: user("sp1", { status: "blocked" }) }),
    );
    counts.saveNew = await count(() => saveUser({ clientId, user: user("sh1") }));
    counts.saveUpdate = await count(() => saveUser({ clientId, user: user("sh1", { status: "blocked" }) }));
    expect([counts.saveNew, counts.saveUpdate]).toEqual([2, 2]);
    expect(counts.saveNewPrisma).toBeGreaterThan(6);
  });

  it("a sanctionsScore rule adds no statement once the lists are indexed", async () => {
    await importSanctions({ file: path.join(SANCTIONS_FIXTURES, "targets.simple.csv") });
    await importRules({ clientId: client.id, rules: SANCTIONS_RULES.filter((r) => r.subject === "user") });
    const sanctioned = (id: string) =>
      user(id, { firstName: "Wiktor", lastName: "Morozenko", dateOfBirth: "1968-04-12" });
    await screenUser({ client: (await authenticateApiKey(apiKey))!, body: sanctioned("warm-s") });
    client = (await authenticateApiKey(apiKey))!;
    counts.userSanctionsPrisma = await count(() => screenUserPrisma({ client, body: sanctioned("ps") }));
    counts.userSanctions = await count(() => screenUser({ client, body: sanctioned("hs") }));
    expect(counts.userSanctions).toBe(2);
    const decision = await prisma.decision.findFirstOrThrow({
      where: { clientId: client.id, subjectId: "hs" },
    });
    expect(decision.riskLevel).toBe("very_high");
  });

  it("a write after a concurrent change of what it read writes nothing and the screening reads again", async () => {
    const clientId = client.id;
    await screenUser({ client, body: user("stale-u") });
    // the user is blocked between the screening's read and its write
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    beforeWrite = async () => {
      await other.query(`UPDATE users SET status = 'blocked' WHERE "clientId" = $1 AND id = 'stale-u'`, [
        clientId,
      ]);
    };
    const answer = await screenUser({ client, body: user("stale-u") });
    // the retry saw the block: the status rule fired and the stored status was kept
    expect(answer.triggered.map((t) => t.id)).toContain("U-STATUS");
    expect(await prisma.decision.count({ where: { clientId, subjectId: "stale-u" } })).toBe(2);
    expect(
      (await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "stale-u" } } })).status,
    ).toBe("blocked");
    // the same for a merchant corrected concurrently
    await screenMerchant({ client, body: merchant("stale-m", "A") });
    beforeWrite = async () => {
      await other.query(
        `UPDATE merchants SET status = 'blocked', data = data || '{"status":"blocked"}' WHERE "clientId" = $1 AND id = 'stale-m'`,
        [clientId],
      );
    };
    await screenMerchant({ client, body: merchant("stale-m", "B") });
    await other.end();
    const versions = await prisma.merchantVersion.findMany({ where: { clientId, merchantId: "stale-m" } });
    // one correction, recording the concurrently blocked body it replaced
    expect(versions.map((v) => (v.data as { status: string }).status)).toEqual(["blocked"]);
    expect(await prisma.decision.count({ where: { clientId, subjectId: "stale-m" } })).toBe(2);
    expect(beforeWrite).toBeNull();
  });

  it("a merchant screening is one read and one write statement, new, corrected or resent", async () => {
    counts.merchantNewPrisma = await count(() => screenMerchantPrisma({ client, body: merchant("p1", "A") }));
    counts.merchantChangedPrisma = await count(() =>
      screenMerchantPrisma({ client, body: merchant("p1", "B") }),
    );
    counts.merchantNew = await count(() => screenMerchant({ client, body: merchant("h1", "A") }));
    counts.merchantChanged = await count(() => screenMerchant({ client, body: merchant("h1", "B") }));
    counts.merchantResend = await count(() => screenMerchant({ client, body: merchant("h1", "B") }));
    expect([counts.merchantNew, counts.merchantChanged, counts.merchantResend]).toEqual([2, 2, 2]);
    expect(counts.merchantNewPrisma).toBeGreaterThan(6);
  });

  it("over HTTP the read travels with the API key read: two statements per request in all", async () => {
    const onboard = (id: string, extra: Record<string, unknown> = {}) =>
      call(onboardRoute.POST, { apiKey, body: { ...user(id, extra), timestamp: Date.now() - 60_000 } });
    const merchantRequest = (id: string, name: string) =>
      call(merchantRoute.POST, { apiKey, body: { ...merchant(id, name), timestamp: Date.now() - 60_000 } });
    // the first request of a key in this process has no client to plan for: key, read, write
    statements = 0;
    expect((await onboard("r0")).status).toBe(200);
    const answers: number[] = [];
    for (const work of [
      () => onboard("r1"),
      () => onboard("r1", { status: "blocked" }),
      () => onboard("r1", { status: "blocked" }),
      () => merchantRequest("rm1", "A"),
      () => merchantRequest("rm1", "B"),
    ]) {
      statements = 0;
      const res = await work();
      expect(res.status).toBe(200);
      answers.push(statements);
    }
    counts.userOverHttp = answers[0]!;
    counts.merchantOverHttp = answers[3]!;
    expect(answers).toEqual([2, 2, 2, 2, 2]);
    expect(
      (await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId: client.id, id: "r1" } } }))
        .status,
    ).toBe("blocked");
  });
});
