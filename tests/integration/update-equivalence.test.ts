// POST /v1/transaction/update on the raw-SQL path (lib/screening/update-transaction.ts) against the
// Prisma path it replaced (updateTransactionPrisma): clients with the same rules, history and
// transactions receive the same varied updates, one through each path, with and without
// transactionUpdateMonitoring, and must end with the same answers, rows, decisions and webhooks.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as transactionRoute from "@/app/v1/transaction/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma } from "@/lib/db";
import { importFxRates } from "@/lib/fx/import-rates";
import { DEMO_RULES } from "@/lib/rules/demo-rules";
import { importRules } from "@/lib/rules/import-rules";
import { updateTransactionPrisma } from "@/tests/oracle/pi-event-update-oracle";
import { ZTransactionUpdate } from "@/lib/transactions/schemas";
import { decisionsOf, outcome, rowsOf, sideRowsOf, untimed } from "@/tests/equivalence";
import { call, createTestClient } from "@/tests/factories";

const HOUR = 3_600_000;
const T0 = Date.now() - 30 * HOUR;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const RULES = [
  ...DEMO_RULES.filter((r) => r.subject === "transaction").map((r) => ({ ...r, status: "active" })),
  ...[
    { id: "UP-DECLINED", condition: "transaction.status == 'DECLINED'", riskLevel: "high" },
    {
      // groups by the stored card fingerprint, which an update can change
      id: "UP-CARD-COUNT",
      condition: "aggregates.cardTx >= 2",
      aggregates: {
        cardTx: { function: "count", over: "transaction", groupBy: "card.cardFingerprint", window: "7d" },
      },
    },
    {
      // filters on the stored status, which an update changes
      id: "UP-APPROVED-SUM",
      condition: "aggregates.approved7d > 15000",
      aggregates: {
        approved7d: {
          function: "sum",
          over: "transaction",
          groupBy: "userId",
          window: "7d",
          field: "amount",
          where: "transaction.status == 'APPROVED'",
        },
      },
    },
    {
      id: "UP-BASE",
      condition: "!has(transaction.baseAmount) || aggregates.base24h > 9000",
      aggregates: {
        base24h: {
          function: "sum",
          over: "transaction",
          groupBy: "userId",
          window: "24h",
          field: "baseAmount",
        },
      },
    },
    {
      id: "UP-ACCOUNTS",
      condition: "aggregates.accounts30d >= 3",
      aggregates: {
        accounts30d: {
          function: "countDistinct",
          over: "transaction",
          groupBy: "userId",
          window: "30d",
          field: "accountId",
        },
      },
    },
    {
      id: "UP-JS-WHERE",
      condition: "aggregates.longIds > 3",
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
    { id: "UP-USER", condition: "user.?firstName.orValue('') == 'Eve'" },
    { id: "UP-MERCHANT", condition: "merchant.?status.orValue('') == 'blocked'", riskLevel: "very_high" },
    { id: "UP-DRY", status: "dry-run", condition: "transaction.?paymentMethod.orValue('') == 'bank'" },
    { id: "UP-MUTED", status: "muted", condition: "transaction.amount > 100" },
  ].map((r) => ({
    name: `Rule ${r.id}`,
    subject: "transaction",
    status: "active",
    riskLevel: "medium",
    recommendedAction: "REVIEW",
    reason: `reason ${r.id}`,
    ...r,
  })),
];

/** The transactions the updates apply to (submitted through the same path on every client). */
function submissions(): Record<string, unknown>[] {
  return Array.from({ length: 12 }, (_, i) => ({
    id: `tx-${i}`,
    ...(i % 4 === 1
      ? {
          user: {
            id: `u${i % 3}`,
            firstName: i === 1 ? "Eve" : "Bob",
            timestamp: T0 - HOUR,
            email: { email: `u${i % 3}@example.com` },
          },
        }
      : { userId: `u${i % 3}` }),
    ...(i % 5 === 2
      ? {
          merchant: {
            id: `m${i % 2}`,
            name: "Shop",
            timestamp: T0 - HOUR,
            status: i === 7 ? "blocked" : "active",
          },
        }
      : { merchantId: `m${i % 2}` }),
    status: i % 3 === 0 ? "PENDING" : "APPROVED",
    currencyCode: i % 4 === 3 ? "KES" : "USD",
    amount: [40, 9000, 12500, 700, 3000, 60000][i % 6],
    timestamp: T0 + i * HOUR,
    accountId: `acc-${i % 2}`,
    ...(i % 2 === 0
      ? { paymentMethod: "card", card: { cardFingerprint: `fp-${i % 3}`, bin: "411111" } }
      : {}),
  }));
}

/** A varied set of updates: statuses, feedback, fraud flags, payment-method changes, unknown ids. */
function updates(): Record<string, unknown>[] {
  return [
    { transactionId: "tx-0", status: "APPROVED", reason: "settled", timestamp: T0 + 20 * HOUR },
    { transactionId: "tx-1", status: "DECLINED", description: "issuer declined" },
    { transactionId: "tx-2", isFraudulent: true, type: "chargeback" },
    { transactionId: "tx-3", feedback: { id: "fb-1", status: "declined", type: "manual", createdAt: T0 } },
    { transactionId: "tx-3", feedback: { id: "fb-2", status: "not-a-status", description: "noted" } },
    {
      transactionId: "tx-4",
      transaction: { paymentMethod: "card", card: { cardFingerprint: "fp-9", bin: "422222" } },
    },
    {
      transactionId: "tx-5",
      status: "APPROVED",
      transaction: {
        accountId: "acc-7",
        paymentMethod: "bank",
        bank: { accountNumber: "DE89 3704 0044", bankCountry: "DE" },
      },
    },
    { transactionId: "tx-6", transaction: { accountId: "acc-8" } },
    { transactionId: "tx-6", transaction: { accountId: "acc-9" }, isFraudulent: false },
    { transactionId: "tx-7", status: "CANCELED" },
    { transactionId: "tx-8", status: "DECLINED" },
    // the same update twice: the alert stays one, the history gets two rows
    { transactionId: "tx-8", status: "DECLINED" },
    { transactionId: "tx-9", transaction: { paymentMethod: "cash", cash: { agentId: "till-4" } } },
    { transactionId: "tx-10", status: "APPROVED", transaction: { card: { cardFingerprint: "fp-1" } } },
    { transactionId: "tx-11", status: "FAILED", reason: "timeout" },
    { transactionId: "nope", status: "APPROVED" },
  ];
}

type TSide = { clientId: string; apiKey: string; context: TClientContext };

async function side(name: string, monitoring: boolean): Promise<TSide> {
  const { clientId, apiKey } = await createTestClient({
    name,
    features: monitoring ? ["transactionUpdateMonitoring"] : [],
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
  await prisma.$executeRawUnsafe(`
    INSERT INTO transactions ("clientId", id, "userId", "merchantId", "accountId", "cardFingerprint", status,
      "paymentMethod", "currencyCode", amount, "occurredAt", data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
    SELECT '${clientId}', 'hist-' || g, 'u' || (g % 3), 'm' || (g % 2), 'acc-' || (g % 4), 'fp-' || (g % 5),
      CASE WHEN g % 3 = 0 THEN 'DECLINED' ELSE 'APPROVED' END, 'card', 'USD', (g * 37 % 9000),
      to_timestamp(${T0 / 1000} - g * 1800),
      jsonb_build_object('id', 'hist-' || g, 'userId', 'u' || (g % 3), 'amount', g * 37 % 9000,
        'card', jsonb_build_object('cardFingerprint', 'fp-' || (g % 5))),
      md5(g::text), 'low', 'ALLOW', now()
    FROM generate_series(1, 200) g`);
  const context = (await authenticateApiKey(apiKey))!;
  for (const body of submissions()) {
    const res = await call(transactionRoute.POST, { apiKey, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { clientId, apiKey, context };
}

async function snapshot(clientId: string) {
  return {
    decisions: await decisionsOf(clientId),
    transactions: await rowsOf(
      clientId,
      `SELECT id, "userId", "merchantId", "accountId", "cardFingerprint", status, "paymentMethod", "currencyCode",
         amount::text, "baseAmount"::text, "occurredAt", data, "riskLevel", "recommendedAction", "isFraud",
         ("decisionId" IS NOT NULL) AS decided
       FROM transactions WHERE "clientId" = $1 AND id NOT LIKE 'hist-%' ORDER BY id`,
    ),
    updates: await rowsOf(
      clientId,
      `SELECT "transactionId", status, reason, description, type, "isFraudulent", source, changes,
         -- an update without a timestamp happened now
         CASE WHEN "occurredAt" < now() - interval '1 hour' THEN "occurredAt" END AS "occurredAt"
       FROM transaction_updates WHERE "clientId" = $1 ORDER BY "transactionId", "createdAt", type, status`,
    ),
    ...(await sideRowsOf(clientId)),
  };
}

describe.each([
  ["with transactionUpdateMonitoring", true],
  ["without monitoring", false],
])("/v1/transaction/update on the raw-SQL path, %s", (_label, monitoring) => {
  let prismaSide: TSide;
  let hotSide: TSide;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "upd-fx-"));
    writeFileSync(path.join(dir, "rates.csv"), `date,currency,rate\n${day(T0 - 40 * HOUR)},KES,129.2\n`);
    await importFxRates({ file: path.join(dir, "rates.csv") });
    prismaSide = await side(`Prisma ${monitoring}`, monitoring);
    hotSide = await side(`Raw ${monitoring}`, monitoring);
    // a rate known only now: the update's base amount differs from the submission's
    writeFileSync(path.join(dir, "later.csv"), `date,currency,rate\n${day(T0 + 2 * HOUR)},KES,140\n`);
    await importFxRates({ file: path.join(dir, "later.csv") });
  });

  it("answers and stores exactly what the Prisma path does", async () => {
    for (const body of updates()) {
      const expected = await outcome(() =>
        updateTransactionPrisma({ client: prismaSide.context, body: ZTransactionUpdate.parse(body) }),
      );
      const res = await call(updateRoute.POST, { apiKey: hotSide.apiKey, body });
      expect(untimed({ status: res.status, body: res.body }), JSON.stringify(body)).toEqual(
        untimed(expected),
      );
    }
    const [a, b] = [await snapshot(prismaSide.clientId), await snapshot(hotSide.clientId)];
    // the set means something
    expect(a.updates.filter((u) => u.includes('"source":"api"')).length).toBeGreaterThan(14);
    expect(a.identifiers.some((i) => i.includes("DE8937040044"))).toBe(true);
    if (monitoring) {
      const screened = a.decisions.filter((d) => d.subject.startsWith("transaction:"));
      expect(screened.length).toBeGreaterThan(submissions().length + 10);
      expect(a.alerts.some((x) => x.includes("UP-DECLINED"))).toBe(true);
      expect(a.decisions.some((d) => JSON.stringify(d.fx).includes(day(T0 + 2 * HOUR)))).toBe(true);
    }
    expect(b.decisions).toEqual(a.decisions);
    for (const key of Object.keys(a) as Array<keyof typeof a>) expect(b[key], key).toEqual(a[key]);
  });
});

describe("concurrent updates of one transaction with transactionUpdateMonitoring", () => {
  it("are all applied (none lost) and each screened once", async () => {
    const { clientId, apiKey } = await createTestClient({ features: ["transactionUpdateMonitoring"] });
    await importRules({ clientId, rules: RULES });
    const ids = ["c-0", "c-1", "c-2", "c-3"];
    for (const id of ids) {
      const res = await call(transactionRoute.POST, {
        apiKey,
        body: { id, userId: "cu", status: "PENDING", currencyCode: "USD", amount: 10, timestamp: Date.now() },
      });
      expect(res.status).toBe(200);
    }
    const answers = await Promise.all(
      ids.flatMap((transactionId) => [
        call(updateRoute.POST, { apiKey, body: { transactionId, transaction: { accountId: "acc-new" } } }),
        call(updateRoute.POST, {
          apiKey,
          body: { transactionId, transaction: { card: { cardFingerprint: "fp-new" } } },
        }),
        call(updateRoute.POST, { apiKey, body: { transactionId, status: "APPROVED", isFraudulent: true } }),
      ]),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const rows = await prisma.transaction.findMany({ where: { clientId }, orderBy: { id: "asc" } });
    for (const row of rows) {
      expect([row.accountId, row.cardFingerprint, row.status, row.isFraud]).toEqual([
        "acc-new",
        "fp-new",
        "APPROVED",
        true,
      ]);
      expect(row.data).toMatchObject({ accountId: "acc-new", card: { cardFingerprint: "fp-new" } });
    }
    const decisions = await prisma.decision.groupBy({ by: ["subjectId"], where: { clientId }, _count: true });
    expect(decisions.map((d) => d._count)).toEqual(ids.map(() => 4));
    expect(await prisma.transactionUpdate.count({ where: { clientId, source: "api", type: null } })).toBe(12);
  });
});
