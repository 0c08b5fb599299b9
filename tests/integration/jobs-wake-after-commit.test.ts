import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { POST as onboardUser } from "@/app/v1/user/onboard/route";
import { POST as subscribe } from "@/app/v1/webhooks/route";
import { prisma } from "@/lib/db";
import { NOTIFY_EVERY_MS } from "@/lib/jobs/wake";
import { call, createTestClient } from "@/tests/factories";
import { startInProcessDriver } from "@/tests/support/in-process-driver";
import { startReceiver, waitFor, type TReceiver } from "@/tests/support/webhook-receiver";

// A screening that writes webhook rows wakes the job drivers after its commit, not from inside its
// transaction: a NOTIFY there makes every notifying commit of the cluster wait for the one before it to be
// flushed (migration 20261128060000_job_wakeup_after_commit, lib/jobs/wake.ts). So its outbox rows do not
// notify at commit; the drivers of its own process are woken in process, the others by a NOTIFY sent at
// most every NOTIFY_EVERY_MS per process.
const SECRET = "whsec_wake-after-commit-secret";
const HOUR = 60 * 60_000;

type TListener = { client: pg.Client; received: number[] };

async function listen(): Promise<TListener> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const received: number[] = [];
  client.on("notification", (n) => {
    if (n.channel === "job_work") received.push(performance.now());
  });
  await client.connect();
  await client.query("LISTEN job_work");
  return { client, received };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let receiver: TReceiver;
let listener: TListener;

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  listener = await listen();
});

afterAll(async () => {
  await listener.client.end();
  await receiver.close();
});

async function subscribedClient(events: string[]): Promise<{ clientId: string; apiKey: string }> {
  const client = await createTestClient();
  const res = await call(subscribe as never, {
    apiKey: client.apiKey,
    body: { url: receiver.url, events, secret: SECRET },
  });
  expect(res.status).toBe(200);
  return client;
}

function transaction(id: string) {
  return {
    id,
    userId: `${id}-user`,
    status: "APPROVED",
    currencyCode: "EUR",
    amount: 120.5,
    timestamp: Date.now() - 1000,
  };
}

describe("job drivers woken after the writer's commit", () => {
  it("outbox rows marked writerWakes notify nobody at commit; rows of every other writer still do", async () => {
    await sleep(NOTIFY_EVERY_MS * 2);
    listener.received.length = 0;
    await prisma.$executeRaw`INSERT INTO outbox_events (id, name, data, "writerWakes")
      VALUES ('wake-test-marked', 'test/none', '{}', TRUE)`;
    await sleep(300);
    expect(listener.received).toHaveLength(0);

    await prisma.$executeRaw`INSERT INTO outbox_events (id, name, data)
      VALUES ('wake-test-unmarked', 'test/none', '{}')`;
    await waitFor(() => listener.received.length > 0, 5_000, "the trigger's notification");
    expect(listener.received).toHaveLength(1);
    await prisma.$executeRaw`DELETE FROM outbox_events WHERE id IN ('wake-test-marked', 'wake-test-unmarked')`;
  });

  it("a screening's outbox rows are marked, and other processes get a NOTIFY after it, at most one per interval", async () => {
    const { clientId, apiKey } = await subscribedClient(["transaction.screened", "user.screened"]);
    await sleep(NOTIFY_EVERY_MS * 2);
    listener.received.length = 0;

    // one screening after a quiet spell: notified at once, after its commit
    const first = await call(postTransaction as never, { apiKey, body: transaction("wake-tx-0") });
    expect(first.status).toBe(200);
    await waitFor(() => listener.received.length > 0, 2_000, "the NOTIFY after the first screening");
    await sleep(NOTIFY_EVERY_MS * 3);
    expect(listener.received).toHaveLength(1);

    // a second screening within the interval: its NOTIFY comes at the interval's end, after its commit
    await sleep(NOTIFY_EVERY_MS * 2);
    listener.received.length = 0;
    const a = await call(postTransaction as never, { apiKey, body: transaction("wake-tx-a") });
    const secondStarted = performance.now();
    const b = await call(postTransaction as never, { apiKey, body: transaction("wake-tx-b") });
    expect([a.status, b.status]).toEqual([200, 200]);
    await waitFor(() => listener.received.length >= 2, 2_000, "a NOTIFY after the second screening");
    expect(listener.received[1]).toBeGreaterThan(secondStarted);
    await sleep(NOTIFY_EVERY_MS * 3);
    expect(listener.received).toHaveLength(2);

    // a burst: at most one NOTIFY per interval, and one after the last screening
    listener.received.length = 0;
    const started = performance.now();
    for (let i = 1; i <= 30; i++) {
      const res = await call(postTransaction as never, { apiKey, body: transaction(`wake-tx-${i}`) });
      expect(res.status).toBe(200);
    }
    const lastCommitted = performance.now();
    await sleep(NOTIFY_EVERY_MS * 4);
    const elapsed = lastCommitted - started;
    expect(listener.received.length).toBeGreaterThanOrEqual(1);
    expect(listener.received.length).toBeLessThanOrEqual(Math.ceil(elapsed / NOTIFY_EVERY_MS) + 1);
    expect(Math.max(...listener.received)).toBeGreaterThanOrEqual(lastCommitted - NOTIFY_EVERY_MS);

    // the party screenings write through the same CTEs
    const onboarded = await call(onboardUser as never, {
      apiKey,
      body: { id: "wake-user-1", firstName: "A", timestamp: Date.now() - 1000 },
    });
    expect(onboarded.status).toBe(200);

    const rows = await prisma.outboxEvent.groupBy({
      by: ["writerWakes"],
      where: { clientId },
      _count: { _all: true },
    });
    // per screening: the emitted event and one delivery request; all marked
    expect(rows).toEqual([{ writerWakes: true, _count: { _all: 2 * 34 } }]);
  });

  it("wakes the driver of its own process in process: no LISTEN, an hour-long poll, every delivery at once", async () => {
    const { clientId, apiKey } = await subscribedClient(["transaction.screened"]);
    const driver = startInProcessDriver({ pollMs: HOUR, sweepIntervalMs: 0 });
    try {
      // its first pass at start (with the earlier tests' undelivered rows); then it sleeps for the hour
      await sleep(1_000);
      const mine = () => receiver.received.filter((r) => r.rawBody.includes('"wake-local-'));
      for (const id of ["wake-local-1", "wake-local-2", "wake-local-3"]) {
        // no run in flight: a run that ends wakes the driver too, and must not be what starts the next one
        await waitFor(
          async () => (await prisma.jobRun.count({ where: { status: { in: ["queued", "running"] } } })) === 0,
          15_000,
          "no run queued or running",
        );
        await sleep(200);
        const res = await call(postTransaction as never, { apiKey, body: transaction(id) });
        expect(res.status).toBe(200);
        // far below the poll: only the in-process wake can have started the run
        await waitFor(
          () => mine().some((r) => r.rawBody.includes(`"${id}"`)),
          15_000,
          `the delivery of ${id}`,
        );
      }
      expect(mine()).toHaveLength(3);
      expect(mine().every((r) => r.verified)).toBe(true);
      // each recorded once answered (the record step follows the send)
      await waitFor(
        async () =>
          (await prisma.webhookDelivery.count({ where: { clientId, status: "delivered", attempts: 1 } })) ===
          3,
        15_000,
        "three deliveries recorded as delivered",
      );
      expect(await prisma.webhookDelivery.count({ where: { clientId } })).toBe(3);
    } finally {
      await driver.stop();
    }
  });
});
