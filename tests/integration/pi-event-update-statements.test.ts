// Statements per /v1/transaction/update, payment-instrument and event screening (a few
// statements instead of dozens): every statement this process sends to PostgreSQL is counted at
// pg.Client#query, for the raw-SQL path (lib/screening) and the Prisma path it replaced.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma, SESSION_SETUP } from "@/lib/db";
import { NOTIFY_STATEMENT } from "@/lib/jobs/wake";
import { ZEvent } from "@/lib/events/schemas";
import { ZPaymentInstrumentRequest } from "@/lib/payment-instruments/schemas";
import { importRules } from "@/lib/rules/import-rules";
import { screenEvent } from "@/lib/screening/screen-event";
import { screenPaymentInstrument } from "@/lib/screening/screen-payment-instrument";
import { screenTransaction } from "@/lib/screening/screen-transaction";
import { updateTransaction } from "@/lib/screening/update-transaction";
import { ZTransaction, ZTransactionUpdate } from "@/lib/transactions/schemas";
import * as eventRoute from "@/app/v1/event/route";
import * as instrumentRoute from "@/app/v1/paymentInstrument/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import { call, createTestClient } from "@/tests/factories";
import {
  screenEventPrisma,
  screenPaymentInstrumentPrisma,
  updateTransactionPrisma,
} from "@/tests/oracle/pi-event-update-oracle";

const original = pg.Client.prototype.query;
let statements = 0;
/** Runs (once) before the next write statement of an event screening is sent. */
let beforeWrite: (() => Promise<void>) | null = null;

async function count(work: () => Promise<unknown>): Promise<number> {
  statements = 0;
  await work();
  return statements;
}

const RULES = (
  [
    [
      "T-AGG",
      "transaction",
      "aggregates.n > 1",
      { n: { function: "count", over: "transaction", groupBy: "userId", window: "7d" } },
    ],
    ["T-STATUS", "transaction", "transaction.status == 'DECLINED'", {}],
    [
      "P-AGG",
      "paymentInstrument",
      "aggregates.n > 1",
      { n: { function: "count", over: "transaction", groupBy: "userId", window: "7d" } },
    ],
    ["P-USER", "paymentInstrument", "user.?status.orValue('') == 'blocked'", {}],
    [
      "E-AGG",
      "event",
      "aggregates.n > 1",
      { n: { function: "count", over: "event", groupBy: "userId", window: "7d" } },
    ],
    ["E-USER", "event", "has(user.createdAt)", {}],
    ["E-BLOCKED", "event", "user.?status.orValue('') == 'blocked'", {}],
  ] as const
).map(([id, subject, condition, aggregates]) => ({
  id,
  name: `Rule ${id}`,
  subject,
  status: "active",
  riskLevel: "high",
  recommendedAction: "REVIEW",
  reason: "r",
  condition,
  aggregates,
}));

describe("statements per update, payment-instrument and event screening", () => {
  const clients: Record<"on" | "off", TClientContext> = {} as never;
  const apiKeys: Record<"on" | "off", string> = {} as never;
  const counts: Record<string, number> = {};
  let n = 0;
  const id = (prefix: string) => `${prefix}-${n++}`;

  beforeAll(async () => {
    for (const [name, features] of [
      ["on", ["transactionUpdateMonitoring", "paymentInstrumentRules", "eventRules"]],
      ["off", []],
    ] as const) {
      const { clientId, apiKey } = await createTestClient({ features: [...features] });
      await importRules({ clientId, rules: RULES });
      await prisma.webhookSubscription.create({
        data: {
          clientId,
          url: "http://127.0.0.1:9/hook",
          events: ["transaction.screened", "alert.created", "payment_instrument.screened", "event.screened"],
          secretEncrypted: "unused-in-this-test",
        },
      });
      const client = (await authenticateApiKey(apiKey))!;
      clients[name] = client;
      apiKeys[name] = apiKey;
      // a stored user and transactions to update (the configuration cache is loaded here, not counted)
      for (let i = 0; i < 3; i++)
        await screenTransaction({
          client,
          body: ZTransaction.parse({
            id: `t${i}`,
            user: { id: "u1", timestamp: Date.now() - 60_000 },
            status: "PENDING",
            currencyCode: "USD",
            amount: 10 + i,
            timestamp: Date.now() - 1000,
          }),
        });
    }
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      // a new pooled connection's session setup is not the screening's
      // nor is the job drivers' NOTIFY after a write's commit (at most one per 50 ms per process, on the
      // background pool: lib/jobs/wake.ts)
      if (args[0] !== SESSION_SETUP && args[0] !== NOTIFY_STATEMENT) statements++;
      const send = () => (original as (...a: unknown[]) => unknown).apply(this, args);
      const hook = beforeWrite;
      if (hook && typeof args[0] === "string" && args[0].includes(`e AS (INSERT INTO "events"`)) {
        beforeWrite = null;
        return hook().then(send);
      }
      return send();
    } as typeof original;
  });

  afterAll(() => {
    pg.Client.prototype.query = original;
    console.log(`statements per request: ${JSON.stringify(counts, null, 1)}`);
  });

  const update = (i: number) =>
    ZTransactionUpdate.parse({
      transactionId: `t${i % 3}`,
      status: i % 2 ? "APPROVED" : "DECLINED",
      transaction: { card: { cardFingerprint: `fp-${i}` } },
    });
  const instrument = () =>
    ZPaymentInstrumentRequest.parse({
      status: "linked",
      paymentInstrument: { id: id("pi"), userId: "u1", card: { fingerprint: "fp1" } },
    });
  const event = () => ZEvent.parse({ id: id("ev"), type: "login", userId: "u1" });
  const inlineEvent = () =>
    ZEvent.parse({
      id: id("ev"),
      type: "login",
      user: { id: "u1", firstName: "A", timestamp: Date.now() - 60_000 },
      merchant: { id: id("m"), name: "M", timestamp: Date.now() - 60_000 },
    });

  it.each([
    ["update", "on", 3],
    ["update", "off", 1],
    ["paymentInstrument", "on", 2],
    ["paymentInstrument", "off", 1],
    ["event", "on", 2],
    ["event", "off", 1],
    // read (stored user and merchant, aggregates), write (user and merchant upserts as guarded CTEs)
    ["event with inline user and merchant", "on", 2],
    // read (stored user and merchant), write
    ["event with inline user and merchant", "off", 2],
  ] as const)("%s, rules features %s: %i statements on the raw path", async (what, features, expected) => {
    const client = clients[features];
    const [raw, viaPrisma] =
      what === "update"
        ? [
            await count(() => updateTransaction({ client, body: update(n++) })),
            await count(() => updateTransactionPrisma({ client, body: update(n++) })),
          ]
        : what === "paymentInstrument"
          ? [
              await count(() => screenPaymentInstrument({ client, body: instrument() })),
              await count(() => screenPaymentInstrumentPrisma({ client, body: instrument() })),
            ]
          : [
              await count(() => screenEvent({ client, body: what === "event" ? event() : inlineEvent() })),
              await count(() =>
                screenEventPrisma({ client, body: what === "event" ? event() : inlineEvent() }),
              ),
            ];
    counts[`${what} (${features}): raw`] = raw;
    counts[`${what} (${features}): Prisma`] = viaPrisma;
    expect(raw).toBe(expected);
    expect(raw).toBeLessThan(viaPrisma);
  });

  it("an event whose inline user changed between the read and the write writes nothing and reads again", async () => {
    const client = clients.on;
    const user = { id: "u-stale", firstName: "A", timestamp: Date.now() - 60_000 };
    await screenEvent({ client, body: ZEvent.parse({ id: id("ev"), type: "login", user }) });
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    beforeWrite = async () => {
      await other.query(`UPDATE users SET status = 'blocked' WHERE "clientId" = $1 AND id = 'u-stale'`, [
        client.id,
      ]);
    };
    const answer = await screenEvent({ client, body: ZEvent.parse({ id: "ev-stale", type: "login", user }) });
    await other.end();
    expect(beforeWrite).toBeNull();
    // the retry saw the block (and kept it): one decision, one event
    expect((answer as { triggered: Array<{ id: string }> }).triggered.map((t) => t.id)).toContain(
      "E-BLOCKED",
    );
    const where = { clientId: client.id };
    expect(
      (await prisma.user.findUniqueOrThrow({ where: { clientId_id: { ...where, id: "u-stale" } } })).status,
    ).toBe("blocked");
    expect(await prisma.decision.count({ where: { ...where, subjectId: "ev-stale" } })).toBe(1);
  });

  it.each([
    // key + read (row, user, merchant), aggregates of the updated row, write
    ["update", "on", 3],
    ["update", "off", 2],
    ["paymentInstrument", "on", 2],
    ["paymentInstrument", "off", 2],
    ["event", "on", 2],
    ["event", "off", 2],
    // key + read (stored parties, merchant hash, aggregates), one guarded write
    ["event with inline user and merchant", "on", 2],
  ] as const)(
    "over HTTP the read travels with the API key read: %s, rules features %s: %i statements in all",
    async (what, features, expected) => {
      const apiKey = apiKeys[features];
      statements = 0;
      const res =
        what === "update"
          ? await call(updateRoute.POST, { apiKey, body: update(n++) })
          : what === "paymentInstrument"
            ? await call(instrumentRoute.PUT, { apiKey, method: "PUT", body: instrument() })
            : await call(eventRoute.POST, { apiKey, body: what === "event" ? event() : inlineEvent() });
      expect(res.status).toBe(200);
      counts[`${what} (${features}): over HTTP, key read included`] = statements;
      expect(statements).toBe(expected);
    },
  );

  it("an update of an unknown id answers 404 from the read that travelled with the key read", async () => {
    statements = 0;
    const res = await call(updateRoute.POST, {
      apiKey: apiKeys.on,
      body: { transactionId: "no-such-transaction", status: "APPROVED" },
    });
    expect(res.status).toBe(404);
    expect(statements).toBe(1);
  });
});
