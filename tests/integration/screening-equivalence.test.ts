// The raw-SQL screening path (lib/screening) against the Prisma path it replaced: two clients with
// the same rules and the same history receive the same varied transactions, one through each path,
// and must end with the same answers, decisions (rules, outcomes, aggregate values) and stored rows.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as merchantRoute from "@/app/v1/merchantRequest/route";
import * as transactionRoute from "@/app/v1/transaction/route";
import { authenticateApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma, SESSION_SETUP } from "@/lib/db";
import { NOTIFY_STATEMENT } from "@/lib/jobs/wake";
import { env } from "@/lib/env";
import { takeToken } from "@/lib/http/rate-limit";
import { importFxRates } from "@/lib/fx/import-rates";
import { importListEntries } from "@/lib/lists/import-list-entries";
import { DEMO_RULES } from "@/lib/rules/demo-rules";
import { importRules } from "@/lib/rules/import-rules";
import { screenTransactionPrisma } from "@/tests/oracle/screen-transaction-oracle";
import { ZTransaction } from "@/lib/transactions/schemas";
import { call, createTestClient } from "@/tests/factories";

const HOUR = 3_600_000;
const T0 = Date.now() - 48 * HOUR;

// Rules beyond the demo set: every aggregate function, a where filter outside the SQL subset (JS
// fallback), stored user and merchant fields, dry-run and muted rules.
const EXTRA_RULES = [
  {
    id: "EQ-DISTINCT-MERCHANTS",
    condition: "aggregates.merchants24h >= 2",
    aggregates: {
      merchants24h: {
        function: "countDistinct",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        field: "merchantId",
      },
    },
  },
  {
    id: "EQ-AVG-MIN-MAX",
    condition: "aggregates.avg7d != null && aggregates.avg7d > 500 && aggregates.max7d > aggregates.min7d",
    aggregates: {
      avg7d: { function: "avg", over: "transaction", groupBy: "userId", window: "7d", field: "amount" },
      min7d: { function: "min", over: "transaction", groupBy: "userId", window: "7d", field: "amount" },
      max7d: { function: "max", over: "transaction", groupBy: "userId", window: "7d", field: "amount" },
    },
  },
  {
    id: "EQ-JS-WHERE",
    condition: "aggregates.longIds > 2",
    aggregates: {
      longIds: {
        function: "count",
        over: "transaction",
        groupBy: "merchantId",
        window: "30d",
        where: "size(transaction.id) > 6",
      },
    },
  },
  { id: "EQ-USER-FIELDS", condition: "user.?firstName.orValue('') == 'Eve' && has(user.createdAt)" },
  {
    id: "EQ-MERCHANT-AGE",
    condition: "has(merchant.timestamp) && merchant.timestamp < transaction.timestamp - 3600000",
  },
  // base amounts (lib/fx): in conditions, aggregates and where filters; absent without a rate
  {
    id: "EQ-BASE-VOLUME",
    condition:
      "!has(transaction.baseAmount) || aggregates.baseVolume24h > 20000 || aggregates.bigBase24h >= 2",
    aggregates: {
      baseVolume24h: {
        function: "sum",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        field: "baseAmount",
      },
      bigBase24h: {
        function: "count",
        over: "transaction",
        groupBy: "userId",
        window: "24h",
        where: "transaction.baseAmount > 5000",
      },
    },
  },
  // lists (lib/lists): CIDR and exact entries, an expired entry
  { id: "EQ-LIST-IP", condition: 'inList("eq_ips", transaction.?userDevice.?ipAddress.orValue(""))' },
  { id: "EQ-DRY-RUN", status: "dry-run", condition: "transaction.amount > 100" },
  { id: "EQ-MUTED", status: "muted", condition: "transaction.amount > 200" },
].map((r) => ({
  name: `Rule ${r.id}`,
  subject: "transaction",
  status: "active",
  riskLevel: "medium",
  recommendedAction: "REVIEW",
  reason: `reason ${r.id}`,
  ...r,
}));

const RULES = [
  ...DEMO_RULES.filter((r) => r.subject === "transaction").map((r) => ({ ...r, status: "active" })),
  ...EXTRA_RULES,
];

/** A deterministic, varied set of transactions (inline parties, instruments, resubmissions). */
function transactions(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < 40; i++) {
    const user = `u${i % 4}`;
    const tx: Record<string, unknown> = {
      id: `tx-${i}`,
      userId: user,
      merchantId: `m${i % 3}`,
      status: i % 5 === 0 ? "PENDING" : "APPROVED",
      // KES and EUR convert (fixture rates below), TZS has no rate
      currencyCode: i % 5 === 1 ? "KES" : i % 7 === 2 ? "TZS" : i % 6 === 5 ? "EUR" : "USD",
      amount: [25, 9500, 12000, 3000, 60000, 9999.5, 750, 1000][i % 8],
      direction: i % 3 === 0 ? "payout" : "payin",
      timestamp: T0 + i * HOUR,
      accountId: `acc-${i % 2}`,
      userDeviceId: `dev-${i % 5}`,
    };
    if (i % 2 === 0) {
      tx.paymentMethod = "card";
      tx.card = { cardFingerprint: `fp-${i % 3}`, bin: "411111", binCountry: i % 4 ? "US" : "IR" };
    }
    if (i % 7 === 3) tx.crypto = { address: `addr-${i % 2}`, network: "bitcoin" };
    if (i % 9 === 4) tx.bank = { accountNumber: `DE89 3704 ${i}`, bankCountry: "DE" };
    if (i % 11 === 5) tx.wallet = { id: `w-${i}`, phone: "+44 20 7946 0000" };
    if (i % 6 === 1) {
      delete tx.userId;
      tx.user = {
        id: user,
        firstName: i % 12 === 1 ? "Eve" : "Bob",
        lastName: "Doe",
        email: { email: `${user}@Example.com` },
        phone: { phone: `+1 555 010${i % 4}` },
        timestamp: T0 + i * HOUR - 10_000,
        ...(i % 12 === 7 ? { status: "blocked" } : {}),
        userDevice: { id: `dev-${i % 5}`, ipAddress: `10.0.0.${i % 5}`, fingerprint: `dfp-${i % 5}` },
      };
    }
    if (i % 8 === 2) {
      delete tx.merchantId;
      tx.merchant = {
        id: `m${i % 3}`,
        name: `Shop ${i}`,
        timestamp: T0 + i * HOUR - 5000,
        status: i % 16 === 10 ? "blocked" : "active",
      };
    }
    if (i % 5 === 3) {
      delete tx.userDeviceId;
      tx.userDevice = { id: `dev-${i % 5}`, ipAddress: `192.168.0.${i}`, platform: "web" };
    }
    if (i % 10 === 6) tx.recipient = { id: `r-${i}`, card: { cardFingerprint: `rfp-${i}` } };
    out.push(tx);
    // identical resubmission, then a changed one
    if (i % 13 === 2) out.push({ ...tx });
    if (i % 13 === 8) out.push({ ...tx, amount: (tx.amount as number) + 20000, status: "APPROVED" });
  }
  return out;
}

type TSide = { clientId: string; apiKey: string; context: TClientContext };

async function side(name: string): Promise<TSide> {
  const { clientId, apiKey } = await createTestClient({ name });
  await importListEntries({
    clientId,
    name: "eq_ips",
    kind: "ip",
    entries: [
      { value: "192.168.0.0/28", key: "192.168.0.0/28", note: null, expiresAt: null },
      { value: "192.168.0.23", key: "192.168.0.23", note: null, expiresAt: null },
      { value: "192.168.0.33", key: "192.168.0.33", note: "expired", expiresAt: new Date(1000) },
    ],
    replace: false,
    actor: "cli",
    source: "test",
  });
  await importRules({ clientId, rules: RULES });
  await prisma.webhookSubscription.create({
    data: {
      clientId,
      url: "http://127.0.0.1:9/hook",
      events: ["transaction.screened", "alert.created"],
      secretEncrypted: "unused-in-this-test",
    },
  });
  // the same history for both
  await prisma.$executeRawUnsafe(`
    INSERT INTO transactions ("clientId", id, "userId", "merchantId", "accountId", "userDeviceId", "cardFingerprint",
      status, direction, "paymentMethod", "currencyCode", amount, "occurredAt", data, "bodyHash", "riskLevel",
      "recommendedAction", "assessedAt")
    SELECT '${clientId}', 'hist-' || g, 'u' || (g % 4), 'm' || (g % 3), 'acc-' || (g % 2), 'dev-' || (g % 5),
      'fp-' || (g % 3), 'APPROVED', CASE WHEN g % 4 = 0 THEN 'payout' ELSE 'payin' END, 'card', 'USD',
      (g * 37 % 12000), to_timestamp(${T0 / 1000} - g * 900),
      jsonb_build_object('id', 'hist-' || g, 'userId', 'u' || (g % 4), 'amount', g * 37 % 12000,
        'direction', CASE WHEN g % 4 = 0 THEN 'payout' ELSE 'payin' END,
        'card', jsonb_build_object('cardFingerprint', 'fp-' || (g % 3))),
      md5(g::text), 'low', 'ALLOW', now()
    FROM generate_series(1, 300) g`);
  return { clientId, apiKey, context: (await authenticateApiKey(apiKey))! };
}

/** Everything a screening stored for the client, without ids that differ between clients. */
async function snapshot(clientId: string) {
  const decisions = await prisma.decision.findMany({ where: { clientId }, orderBy: { createdAt: "asc" } });
  const byVersion = (evaluated: Array<{ versionId: string; ruleId: string }>) =>
    new Map(evaluated.map((e) => [e.versionId, e.ruleId]));
  const normalizedDecisions = decisions
    .map((d) => {
      const evaluated = d.evaluated as Array<{
        versionId: string;
        ruleId: string;
        status: string;
        triggered: boolean;
        error?: string;
      }>;
      const names = byVersion(evaluated);
      const aggregates = Object.fromEntries(
        Object.entries(d.aggregates as Record<string, unknown>).map(([v, values]) => [names.get(v), values]),
      );
      const input = d.input as {
        variables: Record<string, unknown>;
        timestamp: number;
        fx?: unknown;
        lists?: unknown;
      };
      return {
        subjectId: d.subjectId,
        riskLevel: d.riskLevel,
        recommendedAction: d.recommendedAction,
        response: d.response,
        evaluated: evaluated.map((e) => [e.ruleId, e.status, e.triggered, e.error ?? null]),
        aggregates,
        variables: input.variables,
        timestamp: input.timestamp,
        fx: input.fx,
        lists: input.lists,
      };
    })
    .sort(
      (a, b) => a.subjectId.localeCompare(b.subjectId) || JSON.stringify(a).localeCompare(JSON.stringify(b)),
    );
  const rows = async (sql: string) =>
    (await prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, clientId)).map((r) => JSON.stringify(r));
  return {
    decisions: normalizedDecisions,
    transactions: await rows(
      `SELECT id, "userId", "merchantId", "accountId", "userDeviceId", "cardFingerprint", status, direction, "paymentMethod",
         "currencyCode", amount::text, "baseAmount"::text, "occurredAt", data, "bodyHash", "riskLevel", "recommendedAction",
         ("decisionId" IS NOT NULL) AS decided
       FROM transactions WHERE "clientId" = $1 AND id NOT LIKE 'hist-%' ORDER BY id`,
    ),
    updates: await rows(
      `SELECT "transactionId", status, type, source, "occurredAt" FROM transaction_updates WHERE "clientId" = $1
       ORDER BY "transactionId", type, status`,
    ),
    alerts: await rows(
      `SELECT "transactionId", "userId", "ruleId", "ruleName", level, reason, "recommendedAction", status,
         ("decisionId" IS NOT NULL) AS decided
       FROM alerts WHERE "clientId" = $1 ORDER BY "transactionId", "ruleId"`,
    ),
    users: await rows(
      `SELECT id, "firstName", "lastName", email, phone, data, status, "statusReason", "createdAt" FROM users
       WHERE "clientId" = $1 ORDER BY id`,
    ),
    statusChanges: await rows(
      `SELECT "userId", "fromStatus", "toStatus", source, details FROM user_status_changes WHERE "clientId" = $1
       ORDER BY "userId", "createdAt", "toStatus"`,
    ),
    merchants: await rows(
      `SELECT id, name, status, "organizationId", data, "createdAt" FROM merchants WHERE "clientId" = $1 ORDER BY id`,
    ),
    merchantVersions: await rows(
      `SELECT "merchantId", data FROM merchant_versions WHERE "clientId" = $1 ORDER BY "merchantId", data::text`,
    ),
    devices: await rows(
      `SELECT id, "userId", fingerprint, "ipAddress", data FROM devices WHERE "clientId" = $1 ORDER BY id`,
    ),
    identifiers: await rows(
      `SELECT kind, value, "userId", source FROM user_identifiers WHERE "clientId" = $1 ORDER BY kind, value, "userId"`,
    ),
    instruments: await rows(
      `SELECT id, "userId", status, method, data, inferred, "riskLevel", "recommendedAction", "occurredAt"
       FROM payment_instruments WHERE "clientId" = $1 ORDER BY id`,
    ),
    deliveries: await rows(
      `SELECT "eventType", (body::jsonb #- '{payload,alertedAt}' #- '{payload,timestamp}') - 'timestamp' AS body, status
       FROM webhook_deliveries WHERE "clientId" = $1 ORDER BY "eventType", body`,
    ),
    outbox: await rows(
      `SELECT name, count(*)::int AS n FROM outbox_events WHERE "clientId" = $1 GROUP BY name ORDER BY name`,
    ),
  };
}

describe("raw-SQL screening path", () => {
  let prismaSide: TSide;
  let hotSide: TSide;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "eq-fx-"));
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const file = path.join(dir, "rates.csv");
    writeFileSync(
      file,
      `date,currency,rate\n${day(T0 - 40 * HOUR)},KES,129.2\n${day(T0 - 40 * HOUR)},EUR,0.92\n` +
        `${day(T0 + 24 * HOUR)},KES,131\n`,
    );
    await importFxRates({ file });
    prismaSide = await side("Prisma path");
    hotSide = await side("Raw-SQL path");
  });

  it("answers and stores exactly what the Prisma path does, for a varied set of transactions", async () => {
    const bodies = transactions();
    for (const body of bodies) {
      const expected = await screenTransactionPrisma({
        client: prismaSide.context,
        body: ZTransaction.parse(body),
      });
      const res = await call(transactionRoute.POST, { apiKey: hotSide.apiKey, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const strip = (a: { timestamp: number }) => ({ ...a, timestamp: 0 });
      expect(strip(res.body)).toEqual(strip(expected));
    }

    const [a, b] = [await snapshot(prismaSide.clientId), await snapshot(hotSide.clientId)];
    // the set is varied enough to mean something
    const outcomes = new Set(a.decisions.map((d) => `${d.riskLevel}/${d.recommendedAction}`));
    expect(outcomes.size).toBeGreaterThanOrEqual(3);
    expect(a.alerts.length).toBeGreaterThan(5);
    expect(a.merchantVersions.length).toBeGreaterThan(0);
    expect(a.statusChanges.some((s) => s.includes('"toStatus":"blocked"'))).toBe(true);
    expect(
      a.decisions.some((d) => Object.values(d.aggregates).some((v) => Object.keys(v as object).length > 2)),
    ).toBe(true);
    // conversions, missing rates and list hits all occurred
    const fxOf = (d: (typeof a.decisions)[number]) => d.fx as { rate?: number; note?: string } | undefined;
    expect(a.decisions.some((d) => fxOf(d)?.rate !== undefined && fxOf(d)?.rate !== 1)).toBe(true);
    expect(a.decisions.some((d) => fxOf(d)?.note)).toBe(true);
    expect(a.decisions.some((d) => d.evaluated.some(([id, , hit]) => id === "EQ-LIST-IP" && hit))).toBe(true);
    expect(a.decisions.some((d) => d.evaluated.some(([id, , hit]) => id === "EQ-BASE-VOLUME" && hit))).toBe(
      true,
    );

    expect(b.decisions).toEqual(a.decisions);
    for (const key of Object.keys(a) as Array<keyof typeof a>) {
      if (key === "decisions") continue;
      expect(b[key], key).toEqual(a[key]);
    }
  });

  it("uses a rule changed a moment ago on the very next screening", async () => {
    const res1 = await call(transactionRoute.POST, {
      apiKey: hotSide.apiKey,
      body: {
        id: "cache-1",
        userId: "cu",
        status: "APPROVED",
        currencyCode: "EUR",
        amount: 7,
        timestamp: Date.now(),
      },
    });
    expect(res1.body.triggered.map((t: { id: string }) => t.id)).not.toContain("EQ-NEW");
    await importRules({
      clientId: hotSide.clientId,
      rules: [
        { ...EXTRA_RULES[0]!, id: "EQ-NEW", condition: "transaction.currencyCode == 'EUR'", aggregates: {} },
      ],
    });
    const res2 = await call(transactionRoute.POST, {
      apiKey: hotSide.apiKey,
      body: {
        id: "cache-2",
        userId: "cu",
        status: "APPROVED",
        currencyCode: "EUR",
        amount: 7,
        timestamp: Date.now(),
      },
    });
    expect(res2.body.triggered.map((t: { id: string }) => t.id)).toContain("EQ-NEW");
    await prisma.rule.updateMany({
      where: { clientId: hotSide.clientId, ruleId: "EQ-NEW" },
      data: { status: "inactive" },
    });
    const res3 = await call(transactionRoute.POST, {
      apiKey: hotSide.apiKey,
      body: {
        id: "cache-3",
        userId: "cu",
        status: "APPROVED",
        currencyCode: "EUR",
        amount: 7,
        timestamp: Date.now(),
      },
    });
    expect(res3.body.triggered.map((t: { id: string }) => t.id)).not.toContain("EQ-NEW");
  });
});

describe("cached screening configuration", () => {
  it("delivers to a subscription created or deactivated a moment ago from the very next screening", async () => {
    const { clientId, apiKey } = await createTestClient({ name: "Subscriptions" });
    const screen = (id: string) =>
      call(transactionRoute.POST, {
        apiKey,
        body: { id, userId: "su", status: "APPROVED", currencyCode: "USD", amount: 1, timestamp: Date.now() },
      });
    const deliveriesOf = (transactionId: string) =>
      prisma.webhookDelivery.count({
        where: { clientId, body: { contains: `"id":"${transactionId}"` } },
      });
    expect((await screen("sub-1")).status).toBe(200);
    const subscription = await prisma.webhookSubscription.create({
      data: {
        clientId,
        url: "http://127.0.0.1:9/hook",
        events: ["transaction.screened"],
        secretEncrypted: "unused-in-this-test",
      },
    });
    expect((await screen("sub-2")).status).toBe(200);
    await prisma.webhookSubscription.update({ where: { id: subscription.id }, data: { active: false } });
    expect((await screen("sub-3")).status).toBe(200);
    expect([await deliveriesOf("sub-1"), await deliveriesOf("sub-2"), await deliveriesOf("sub-3")]).toEqual([
      0, 1, 0,
    ]);
  });
});

describe("a stored merchant keeps its first timestamp (interface, Merchant rule 2)", () => {
  it("in the stored record and as merchant.timestamp, via /v1/merchantRequest and inline", async () => {
    const { clientId, apiKey } = await createTestClient({
      type: "business",
      features: ["merchantRiskAssessment"],
    });
    const first = Date.now() - 10 * 86_400_000;
    await importRules({
      clientId,
      rules: [
        {
          id: "M-FIRST-SEEN",
          name: "Merchant first seen",
          subject: "transaction",
          status: "active",
          riskLevel: "high",
          recommendedAction: "REVIEW",
          reason: "first timestamp kept",
          condition: `merchant.timestamp == ${first}`,
        },
        {
          id: "M-SCREEN-FIRST-SEEN",
          name: "Merchant screening sees first timestamp",
          subject: "merchant",
          status: "active",
          riskLevel: "high",
          recommendedAction: "REVIEW",
          reason: "first timestamp kept",
          condition: `merchant.timestamp == ${first}`,
        },
      ],
    });
    const created = await call(merchantRoute.POST, {
      apiKey,
      body: { id: "shop", name: "Shop", timestamp: first, status: "active" },
    });
    expect(created.status).toBe(200);
    const resent = await call(merchantRoute.POST, {
      apiKey,
      body: { id: "shop", name: "Shop Ltd", timestamp: Date.now() - 1000, status: "active" },
    });
    expect(resent.status).toBe(200);
    expect(resent.body.triggered.map((t: { id: string }) => t.id)).toEqual(["M-SCREEN-FIRST-SEEN"]);

    const inline = await call(transactionRoute.POST, {
      apiKey,
      body: {
        id: "t-inline",
        userId: "u",
        status: "APPROVED",
        currencyCode: "USD",
        amount: 5,
        timestamp: Date.now(),
        merchant: { id: "shop", name: "Shop Group", timestamp: Date.now() - 500, status: "active" },
      },
    });
    expect(inline.status).toBe(200);
    expect(inline.body.triggered.map((t: { id: string }) => t.id)).toEqual(["M-FIRST-SEEN"]);

    const stored = await prisma.merchant.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "shop" } },
    });
    expect(stored.createdAt.getTime()).toBe(first);
    expect(stored.name).toBe("Shop Group");
    expect((stored.data as { timestamp: number }).timestamp).toBe(first);
    const decision = await prisma.decision.findFirstOrThrow({ where: { clientId, subjectId: "t-inline" } });
    expect(
      (decision.input as { variables: { merchant: { timestamp: number } } }).variables.merchant.timestamp,
    ).toBe(first);
  });
});

describe("one read and one write (lib/screening/README.md)", () => {
  let prismaSide: TSide;
  let hotSide: TSide;
  beforeAll(async () => {
    prismaSide = await side("Prisma path, single-statement cases");
    hotSide = await side("Raw-SQL path, single-statement cases");
  });

  /** The same body through both paths; both answer the same (but for the answer's timestamp). */
  async function both(body: Record<string, unknown>) {
    const expected = await screenTransactionPrisma({
      client: prismaSide.context,
      body: ZTransaction.parse(body),
    });
    const res = await call(transactionRoute.POST, { apiKey: hotSide.apiKey, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect({ ...res.body, timestamp: 0 }).toEqual({ ...expected, timestamp: 0 });
    return res.body as { riskLevel: string };
  }

  /** The values of one rule's aggregates in the decisions of one transaction, oldest first. */
  async function aggregatesOf(clientId: string, transactionId: string, ruleId: string) {
    const decisions = await prisma.decision.findMany({
      where: { clientId, subjectId: transactionId },
      orderBy: { createdAt: "asc" },
    });
    return decisions.map((d) => {
      const versionId = (d.evaluated as Array<{ versionId: string; ruleId: string }>).find(
        (e) => e.ruleId === ruleId,
      )!.versionId;
      return (d.aggregates as Record<string, Record<string, unknown>>)[versionId];
    });
  }

  it("replaces a stored id with a changed body, counting the record once with its new values", async () => {
    const at = Date.now() - 3 * HOUR;
    const first = {
      id: "rep-1",
      userId: "solo",
      merchantId: "m-solo",
      status: "APPROVED",
      currencyCode: "USD",
      amount: 100,
      timestamp: at,
    };
    await both(first);
    await both(first); // identical: the stored answer, no new decision
    await both({ ...first, amount: 700, status: "DECLINED" }); // replace
    await both({ ...first, id: "rep-2", amount: 300, timestamp: at + HOUR });

    for (const s of [prismaSide, hotSide]) {
      expect(await aggregatesOf(s.clientId, "rep-1", "EQ-AVG-MIN-MAX")).toEqual([
        { avg7d: 100, min7d: 100, max7d: 100 },
        { avg7d: 700, min7d: 700, max7d: 700 },
      ]);
      // the replaced record counts once, with its new amount
      expect(await aggregatesOf(s.clientId, "rep-2", "EQ-AVG-MIN-MAX")).toEqual([
        { avg7d: 500, min7d: 300, max7d: 700 },
      ]);
    }
    const [a, b] = [await snapshot(prismaSide.clientId), await snapshot(hotSide.clientId)];
    expect(a.updates.filter((u) => u.includes('"rep-1"'))).toHaveLength(2);
    for (const key of Object.keys(a) as Array<keyof typeof a>) expect(b[key], key).toEqual(a[key]);
  });

  it("stores an inline user and an inline merchant (new, then changed) as the Prisma path does", async () => {
    const at = Date.now() - 2 * HOUR;
    const user = (firstName: string, extra: Record<string, unknown> = {}) => ({
      id: "inl-u",
      firstName,
      lastName: "Doe",
      email: { email: "Inl@Example.com" },
      phone: { phone: "+1 555 0199" },
      timestamp: at - 60_000,
      userDevice: { id: "inl-dev", ipAddress: "10.9.9.9", fingerprint: "inl-fp" },
      ...extra,
    });
    const merchant = (name: string) => ({ id: "inl-m", name, timestamp: at - 30_000, status: "active" });
    const base = { status: "APPROVED", currencyCode: "USD", amount: 9500, timestamp: at };
    await both({ ...base, id: "inl-1", user: user("Eve"), merchant: merchant("Inline Shop") });
    // changed user (status, device seen again with the transaction's own device) and merchant
    await both({
      ...base,
      id: "inl-2",
      timestamp: at + 60_000,
      user: user("Eve", { status: "blocked", email: { email: "eve@example.com" } }),
      merchant: merchant("Inline Shop Ltd"),
      userDevice: { id: "inl-dev", ipAddress: "10.9.9.10" },
    });
    // an identical resubmission with inline parties changes nothing
    await both({ ...base, id: "inl-1", user: user("Eve"), merchant: merchant("Inline Shop") });
    // stored user and merchant sent again unchanged, the transaction's own device another one with the
    // inline device's IP address (its identifier keeps the inline user's source)
    await both({
      ...base,
      id: "inl-3",
      timestamp: at + 120_000,
      user: user("Eve", { status: "blocked", email: { email: "eve@example.com" } }),
      merchant: merchant("Inline Shop Ltd"),
      userDevice: { id: "inl-dev-2", ipAddress: "10.9.9.9" },
    });
    // a new user with a device and a merchant unknown so far, then the user unblocked
    await both({
      ...base,
      id: "inl-4",
      timestamp: at + 180_000,
      user: { ...user("Ann"), id: "inl-u2", userDevice: { id: "inl-dev-3", fingerprint: "fp-3" } },
      merchant: { ...merchant("Other"), id: "inl-m2" },
    });
    await both({
      ...base,
      id: "inl-5",
      timestamp: at + 240_000,
      user: user("Eve", { status: "active" }),
      merchant: { ...merchant("Other"), id: "inl-m2" },
    });
    const [a, b] = [await snapshot(prismaSide.clientId), await snapshot(hotSide.clientId)];
    expect(a.merchantVersions.some((v) => v.includes('"inl-m"'))).toBe(true);
    expect(a.statusChanges.some((s) => s.includes('"inl-u"') && s.includes('"toStatus":"blocked"'))).toBe(
      true,
    );
    for (const key of Object.keys(a) as Array<keyof typeof a>) expect(b[key], key).toEqual(a[key]);
  });

  it("answers two concurrent first submissions of one id with one stored screening", async () => {
    const bodies = [
      {
        id: "race-1",
        userId: "racer",
        merchantId: "m0",
        status: "APPROVED",
        currencyCode: "USD",
        amount: 9999.5,
        timestamp: Date.now() - HOUR,
      },
      {
        id: "race-2",
        user: { id: "racer-2", firstName: "Eve", timestamp: Date.now() - 2 * HOUR },
        merchant: { id: "race-m", name: "Race shop", timestamp: Date.now() - 2 * HOUR },
        status: "APPROVED",
        currencyCode: "USD",
        amount: 12000,
        timestamp: Date.now() - HOUR,
      },
    ];
    for (const body of bodies) {
      const answers = await Promise.all(
        [0, 1, 2].map(() => call(transactionRoute.POST, { apiKey: hotSide.apiKey, body })),
      );
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [first, ...rest] = answers.map((r) => r.body as { riskLevel: string; triggered: unknown[] });
      for (const other of rest) expect({ ...other, timestamp: 0 }).toEqual({ ...first, timestamp: 0 });
      const where = { clientId: hotSide.clientId };
      expect(await prisma.transaction.count({ where: { ...where, id: body.id } })).toBe(1);
      expect(await prisma.decision.count({ where: { ...where, subjectId: body.id } })).toBe(1);
      expect(await prisma.transactionUpdate.count({ where: { ...where, transactionId: body.id } })).toBe(1);
      const screened = await prisma.webhookDelivery.count({
        where: {
          ...where,
          eventType: "transaction.screened",
          body: { contains: `"id":"${body.id}"` },
        },
      });
      expect(screened).toBe(1);
    }
    // three concurrent replaces by one changed body: one replace, the others answer what it stored
    const changed = { ...bodies[0]!, amount: 15000 };
    const replaced = await Promise.all(
      [0, 1, 2].map(() => call(transactionRoute.POST, { apiKey: hotSide.apiKey, body: changed })),
    );
    for (const res of replaced) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const where = { clientId: hotSide.clientId };
    expect(await prisma.decision.count({ where: { ...where, subjectId: "race-1" } })).toBe(2);
    expect(
      (await prisma.transactionUpdate.findMany({ where: { ...where, transactionId: "race-1" } }))
        .map((u) => u.type)
        .sort(),
    ).toEqual(["resubmitted", "submitted"]);
    const stored = await prisma.transaction.findUniqueOrThrow({
      where: { clientId_id: { clientId: hotSide.clientId, id: "race-1" } },
    });
    expect(Number(stored.amount)).toBe(15000);
  });
});

describe("the screening read travels with the API key read (withClientRead)", () => {
  const tx = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    userId: "ku",
    status: "APPROVED",
    currencyCode: "USD",
    amount: 10,
    timestamp: Date.now() - 1000,
    ...extra,
  });

  it("refuses a revoked key on the very next request, and reports a body error to a valid key only", async () => {
    const { apiKey } = await createTestClient({ name: "Keyed read" });
    // two screenings: the second already reads with the key
    expect((await call(transactionRoute.POST, { apiKey, body: tx("k-1") })).status).toBe(200);
    expect((await call(transactionRoute.POST, { apiKey, body: tx("k-2") })).status).toBe(200);
    const invalid = await call(transactionRoute.POST, { apiKey, body: tx("k-3", { amount: "ten" }) });
    expect([invalid.status, invalid.body.error.type]).toEqual([400, "VALIDATION_ERROR"]);
    await revokeApiKey({ apiKey });
    for (const body of [tx("k-4"), tx("k-5", { amount: "ten" })]) {
      const refused = await call(transactionRoute.POST, { apiKey, body });
      expect([refused.status, refused.body.error.type]).toEqual([401, "UNAUTHORIZED"]);
    }
    const missing = await call(transactionRoute.POST, { body: tx("k-6", { amount: "ten" }) });
    expect(missing.status).toBe(401);
  });

  it("answers 429 before a body error, and for a valid body after the key and read statement", async () => {
    const { apiKey } = await createTestClient({ name: "Keyed read, rate" });
    expect((await call(transactionRoute.POST, { apiKey, body: tx("rl-0") })).status).toBe(200);
    // the key's bucket, emptied as of a minute from now: it stays empty for this test
    const { apiKeyId } = (await authenticateApiKey(apiKey))!;
    while (takeToken(apiKeyId, env.RATE_LIMIT_PER_SECOND, Date.now() + 60_000).ok);
    for (const body of [tx("rl-1", { amount: "ten" }), tx("rl-2")]) {
      const res = await call(transactionRoute.POST, { apiKey, body });
      expect([res.status, res.body.error.type]).toEqual([429, "RATE_LIMITED"]);
    }
    expect(await prisma.transaction.count({ where: { id: "rl-2" } })).toBe(0);
  });

  it("reads and writes for the client the key belongs to in that statement, not the one it was planned for", async () => {
    const a = await createTestClient({ name: "Key moved from" });
    const b = await createTestClient({ name: "Key moved to" });
    await importRules({
      clientId: b.clientId,
      rules: [
        {
          id: "B-COUNT",
          name: "B count",
          subject: "transaction",
          status: "active",
          riskLevel: "high",
          recommendedAction: "BLOCK",
          reason: "two in a day",
          condition: "aggregates.n >= 2",
          aggregates: { n: { function: "count", over: "transaction", groupBy: "userId", window: "24h" } },
        },
      ],
    });
    // the same id and user at both clients; the key then moves from a to b (the guess is a)
    expect((await call(transactionRoute.POST, { apiKey: a.apiKey, body: tx("mv-1") })).status).toBe(200);
    expect((await call(transactionRoute.POST, { apiKey: b.apiKey, body: tx("mv-0") })).status).toBe(200);
    await prisma.apiKey.updateMany({ where: { clientId: a.clientId }, data: { clientId: b.clientId } });
    const moved = await call(transactionRoute.POST, { apiKey: a.apiKey, body: tx("mv-1") });
    expect(moved.status).toBe(200);
    // b's rule, b's history (mv-0 and the record itself), stored at b; a's mv-1 untouched
    expect(moved.body.triggered.map((t: { id: string }) => t.id)).toEqual(["B-COUNT"]);
    expect(await prisma.transaction.count({ where: { clientId: b.clientId, id: "mv-1" } })).toBe(1);
    expect(await prisma.decision.count({ where: { clientId: a.clientId, subjectId: "mv-1" } })).toBe(1);
  });
});

describe("an inline user or merchant costs no statement of its own (sql/inline-parties.ts)", () => {
  const original = pg.Client.prototype.query;
  let statements = 0;
  /** Runs (once) before the next write statement of a transaction screening is sent. */
  let beforeWrite: (() => Promise<void>) | null = null;
  let apiKey: string;
  let clientId: string;
  let other: pg.Client;

  beforeAll(async () => {
    ({ apiKey, clientId } = await createTestClient({ name: "Inline parties" }));
    await importRules({
      clientId,
      rules: [
        ["IN-BLOCKED", "user.status == 'blocked'"],
        ["IN-RENAMED", "merchant.?name.orValue('') == 'Renamed'"],
      ].map(([id, condition]) => ({
        id: id!,
        name: `Rule ${id}`,
        subject: "transaction",
        status: "active",
        riskLevel: "high",
        recommendedAction: "BLOCK",
        reason: "r",
        condition: condition!,
      })),
    });
    other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const send = () => (original as (...a: unknown[]) => unknown).apply(this, args);
      const hook = beforeWrite;
      const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string } | null)?.text;
      // a new pooled connection's session setup is not the screening's
      // nor is the job drivers' NOTIFY after a write's commit (at most one per 50 ms per process, on the
      // background pool: lib/jobs/wake.ts)
      if (text !== SESSION_SETUP && text !== NOTIFY_STATEMENT) statements++;
      if (hook && text?.includes("SELECT 1 / (SELECT count(*)::int FROM t)")) {
        beforeWrite = null;
        return hook().then(send);
      }
      return send();
    } as typeof original;
    // the key's client and configuration are known to this process from now on (not counted below)
    expect((await post(tx("warm", { userId: "warm-u" }))).status).toBe(200);
  });

  afterAll(async () => {
    pg.Client.prototype.query = original;
    await other.end();
  });

  const at = Date.now() - 3 * HOUR;
  const tx = (id: string, extra: Record<string, unknown>) => ({
    id,
    status: "APPROVED",
    currencyCode: "USD",
    amount: 50,
    timestamp: at,
    ...extra,
  });
  const user = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    firstName: "Ann",
    email: { email: `${id}@example.com` },
    userDevice: { id: `dev-${id}`, ipAddress: "10.1.1.1" },
    timestamp: at - HOUR,
    ...extra,
  });
  const merchant = (id: string, name: string) => ({ id, name, timestamp: at - HOUR, status: "active" });
  async function post(body: Record<string, unknown>) {
    return call(transactionRoute.POST, { apiKey, body });
  }
  async function counted(body: Record<string, unknown>) {
    statements = 0;
    const res = await post(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { n: statements, triggered: (res.body.triggered as Array<{ id: string }>).map((t) => t.id) };
  }

  it("is the key read with the screening read, then one write: new, changed, resent parties", async () => {
    const device = { id: "tx-dev", ipAddress: "10.2.2.2" };
    const runs = [
      // new user (with a device) and new merchant, the transaction with a device of its own
      await counted(
        tx("ip-1", { user: user("ip-u"), merchant: merchant("ip-m", "Shop"), userDevice: device }),
      ),
      // user blocked and merchant renamed (a correction)
      await counted(
        tx("ip-2", { user: user("ip-u", { status: "blocked" }), merchant: merchant("ip-m", "Renamed") }),
      ),
      // an identical resubmission: the stored answer after the key and read statement
      await counted(
        tx("ip-2", { user: user("ip-u", { status: "blocked" }), merchant: merchant("ip-m", "Renamed") }),
      ),
      // both sent again unchanged with another transaction
      await counted(
        tx("ip-3", { user: user("ip-u", { status: "blocked" }), merchant: merchant("ip-m", "Renamed") }),
      ),
    ];
    expect(runs.map((r) => r.n)).toEqual([2, 2, 1, 2]);
    expect(runs.map((r) => r.triggered)).toEqual([
      [],
      ["IN-BLOCKED", "IN-RENAMED"],
      ["IN-BLOCKED", "IN-RENAMED"],
      ["IN-BLOCKED", "IN-RENAMED"],
    ]);
    const where = { clientId };
    expect(
      (await prisma.userStatusChange.findMany({ where: { ...where, userId: "ip-u" } }))
        .map((c) => c.toStatus)
        .sort(),
    ).toEqual(["active", "blocked"]);
    expect(await prisma.merchantVersion.count({ where: { ...where, merchantId: "ip-m" } })).toBe(1);
    expect((await prisma.device.findMany({ where, orderBy: { id: "asc" } })).map((d) => d.id)).toEqual([
      "dev-ip-u",
      "tx-dev",
    ]);
  });

  it("writes nothing when a party changed between the read and the write, and reads again", async () => {
    await post(tx("st-0", { user: user("st-u"), merchant: merchant("st-m", "Shop") }));
    // the user is blocked between the screening's read and its write
    beforeWrite = async () => {
      await other.query(`UPDATE users SET status = 'blocked' WHERE "clientId" = $1 AND id = 'st-u'`, [
        clientId,
      ]);
    };
    const blocked = await counted(tx("st-1", { user: user("st-u"), merchant: merchant("st-m", "Shop") }));
    expect(beforeWrite).toBeNull();
    // key and read, (the concurrent UPDATE,) the aborted write, read, write; the retry saw the block
    // and kept it
    expect(blocked).toEqual({ n: 5, triggered: ["IN-BLOCKED"] });
    const where = { clientId };
    expect(
      (await prisma.user.findUniqueOrThrow({ where: { clientId_id: { clientId, id: "st-u" } } })).status,
    ).toBe("blocked");
    expect(await prisma.decision.count({ where: { ...where, subjectId: "st-1" } })).toBe(1);
    expect(await prisma.transactionUpdate.count({ where: { ...where, transactionId: "st-1" } })).toBe(1);
    // the merchant is renamed concurrently: the resend (unchanged as read) becomes a correction of it
    beforeWrite = async () => {
      await other.query(
        `UPDATE merchants SET name = 'Renamed', data = data || '{"name":"Renamed"}' WHERE "clientId" = $1 AND id = 'st-m'`,
        [clientId],
      );
    };
    const renamed = await counted(tx("st-2", { user: user("st-u"), merchant: merchant("st-m", "Shop") }));
    expect(beforeWrite).toBeNull();
    expect(renamed).toEqual({ n: 5, triggered: ["IN-BLOCKED"] });
    const versions = await prisma.merchantVersion.findMany({ where: { ...where, merchantId: "st-m" } });
    expect(versions.map((v) => (v.data as { name: string }).name)).toEqual(["Renamed"]);
    const stored = await prisma.merchant.findUniqueOrThrow({
      where: { clientId_id: { clientId, id: "st-m" } },
    });
    expect([stored.name, (stored.data as { name: string }).name]).toEqual(["Shop", "Shop"]);
  });
});
