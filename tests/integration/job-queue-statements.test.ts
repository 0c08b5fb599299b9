// The job driver's and the webhook deliveries' writes find their rows by id, whatever the tables hold: the
// outbox (every event ever dispatched, until pruned), a month of deliveries, the runs being worked on. Each
// statement's shared buffers are counted from its plan (auto_explain), not timed. Before, recording one
// attempt hashed the whole month of deliveries twice, marking a batch dispatched hashed the whole outbox,
// and a run's update walked every "running" entry of the status index.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookSubscription } from "@/lib/admin/webhooks";
import type { TSessionUser } from "@/lib/auth/session";
import { jobsPool, prisma } from "@/lib/db";
import type { TJobFunction } from "@/lib/jobs/function-table";
import { dispatchAndClaim, updateRun } from "@/lib/jobs/run-store";
import { recordDeliveryAttempt } from "@/lib/webhooks/record-delivery-attempt";
import { createTestClient, emitTestDelivery } from "@/tests/factories";
import { type TStatementPlan, watchStatements } from "@/tests/support/statement-buffers";

const plans: TStatementPlan[] = [];
const buffersOf = (prefix: string) => plans.filter((p) => p.query.startsWith(prefix)).map((p) => p.buffers);
const FN: TJobFunction = { id: "plans-fn", events: ["test/plans"], maxAttempts: 1, version: 1 };

let admin: TSessionUser;
beforeAll(async () => {
  // before the pool's first connection: every connection reports its plans
  watchStatements(jobsPool(), (plan) => plans.push(plan));
  const { clientId } = await createTestClient();
  admin = { id: "du-plans", clientId, email: "admin@plans.test", name: null, role: "admin" };
});
afterAll(async () => {
  await jobsPool().end();
});

describe("the job queue's writes by id", () => {
  it("records a delivery's attempt through the month's primary key, with 8,000 other deliveries in the month", async () => {
    await createWebhookSubscription(admin, {
      url: "http://127.0.0.1:9/plans",
      events: ["user.status.block"],
    });
    const delivery = await emitTestDelivery(admin.clientId);
    // the month's other deliveries: copies of this one, delivered
    await prisma.$executeRawUnsafe(
      `INSERT INTO webhook_deliveries
       SELECT (jsonb_populate_record(d, jsonb_build_object('id', 'filler-' || g, 'outboxEventId', 'filler-' || g,
                'status', 'delivered'))).*
       FROM webhook_deliveries d, generate_series(1, 8000) g WHERE d.id = $1`,
      delivery.id,
    );
    await prisma.$executeRawUnsafe(`ANALYZE webhook_deliveries`);

    const startedAt = Date.now();
    const recorded = await recordDeliveryAttempt({
      deliveryId: delivery.id,
      outcome: { attempt: 1, startedAt, durationMs: 4, responseStatus: 200, error: null, ok: true },
      retryAt: null,
    });
    expect(recorded).toEqual({ status: "delivered", attempts: 1, nextAttemptAt: null });
    const stored = await prisma.webhookDelivery.findFirstOrThrow({ where: { id: delivery.id } });
    expect(stored).toMatchObject({ status: "delivered", attempts: 1, deliveredAt: new Date(startedAt + 4) });
    expect(await prisma.webhookDelivery.count({ where: { status: "delivered" } })).toBe(8001);

    const [buffers] = buffersOf("WITH a AS (");
    // hashed from the whole month, twice, it read 673
    expect(buffers).toBeGreaterThan(0);
    expect(buffers).toBeLessThan(100);
  });

  it("dispatches and claims an event, and completes its run, by id beside 10,000 dispatched events and 5,000 running runs", async () => {
    // statistics taken during a backlog (10,000 events waiting), which was dispatched since
    await prisma.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, name, data)
       SELECT 'filler-' || g, 'test/filler', '{}' FROM generate_series(1, 10000) g`,
    );
    await prisma.$executeRawUnsafe(`ANALYZE outbox_events`);
    await prisma.$executeRawUnsafe(
      `UPDATE outbox_events SET "dispatchedAt" = now(), "dispatchedBy" = 2 WHERE name = 'test/filler'`,
    );
    // and vacuumed since (autovacuum): the undispatched index holds none of them
    await prisma.$executeRawUnsafe(`VACUUM outbox_events`);
    await prisma.$executeRawUnsafe(`ANALYZE job_runs`);
    // idle passes first, as a running driver makes them: the connection's plan for the statement becomes the
    // generic one, which takes the batch for 150 events
    for (let i = 0; i < 6; i++)
      expect((await dispatchAndClaim([FN], { free: 1, leaseMs: 60_000 })).runs).toEqual([]);
    plans.length = 0;
    await prisma.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, name, data) VALUES ('plans-event', 'test/plans', '{"n": 1}')`,
    );

    const { dispatched, runs } = await dispatchAndClaim([FN], { free: 1, leaseMs: 60_000 });
    expect(dispatched).toBe(1);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ functionId: "plans-fn", eventId: "plans-event", attempt: 0 });
    const [pass] = buffersOf("WITH batch AS (");
    // hashing the whole outbox to mark one event, the pass read 207
    expect(pass).toBeGreaterThan(0);
    expect(pass).toBeLessThan(60);

    // runs leased by other workers (of a function no driver serves), after the statistics were taken: they
    // thought none was running
    await prisma.$executeRawUnsafe(
      `INSERT INTO job_runs (id, "functionId", "eventId", event, status, "leaseUntil")
       SELECT 'filler-run-' || g, 'plans-filler', 'filler-' || g, '{}', 'running', now() + interval '1 hour'
       FROM generate_series(1, 5000) g`,
    );
    const run = runs[0]!;
    const lease = await updateRun(
      run.id,
      run.leaseUntil,
      { kind: "completed", steps: {}, output: "done" },
      60_000,
    );
    expect(lease).toEqual(run.leaseUntil);
    const stored = await prisma.jobRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(stored).toMatchObject({ status: "completed", output: "done", leaseUntil: null });
    // a stale lease writes nothing
    expect(
      await updateRun(run.id, run.leaseUntil, { kind: "completed", steps: {}, output: "again" }, 60_000),
    ).toBeNull();

    const [update] = buffersOf("UPDATE job_runs j SET");
    // walking the status index's 5,000 running entries and their rows, it read 105
    expect(update).toBeGreaterThan(0);
    expect(update).toBeLessThan(30);
  });

  it("has the queue's tables vacuumed after 5,000 dead versions, whatever their size", async () => {
    // the dead entries of the open-work indexes are what the statements above would walk until VACUUM
    const rows = await prisma.$queryRaw<Array<{ table: string; options: string[] | null }>>`
      SELECT relname AS "table", reloptions AS options FROM pg_class
      WHERE relname IN ('outbox_events', 'job_runs') AND relkind = 'r' ORDER BY relname`;
    expect(rows.map((r) => r.table)).toEqual(["job_runs", "outbox_events"]);
    for (const row of rows) {
      expect(row.options).toEqual(
        expect.arrayContaining(["autovacuum_vacuum_scale_factor=0", "autovacuum_vacuum_threshold=5000"]),
      );
    }
  });
});
