import { describe, expect, it, vi } from "vitest";

// /metrics after a screening that opens a case and leaves a webhook delivery pending: the aggregate
// read time, the delivery backlog and its commit-to-delivery latency, the cases opened and overdue,
// the job runs by state, each as the scrape shows it and equal to what the database holds.

vi.hoisted(() => {
  process.env.METRICS_TOKEN = "ops-metrics-test-token-0123456789";
});

const { GET: scrapeRoute } = await import("@/app/metrics/route");
const { POST: postTransaction } = await import("@/app/v1/transaction/route");
const { POST: subscribe } = await import("@/app/v1/webhooks/route");
const { prisma } = await import("@/lib/db");
const { importRules } = await import("@/lib/rules/import-rules");
const { recordDeliveryAttempt } = await import("@/lib/webhooks/record-delivery-attempt");
const { call, createTestClient } = await import("@/tests/factories");

const TOKEN = process.env.METRICS_TOKEN!;
// the scrape-time database metrics are read at most once a second per process
const NEXT_READ_MS = 1_100;

async function scrape(): Promise<string> {
  const res = await scrapeRoute(
    new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }),
  );
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one series (name with its labels, exactly as printed), or undefined when absent. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Records a successful first attempt of a delivery, as the delivery function does. */
function deliveredFirstTry(deliveryId: string) {
  return recordDeliveryAttempt({
    deliveryId,
    outcome: { attempt: 1, startedAt: Date.now(), durationMs: 3, responseStatus: 200, error: null, ok: true },
    retryAt: null,
  });
}

async function databaseCounts() {
  const [row] = await prisma.$queryRaw<
    Array<{ pending: number; opened: number; overdue: number; due: number; leased: number }>
  >`SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS pending,
           (SELECT count(*) FROM cases)::int AS opened,
           (SELECT count(*) FROM cases WHERE status <> 'closed' AND "dueAt" < now())::int AS overdue,
           (SELECT count(*) FROM job_runs WHERE status = 'queued' AND "runAt" <= now())::int AS due,
           (SELECT count(*) FROM job_runs WHERE status = 'running' AND "leaseUntil" >= now())::int AS leased`;
  return row!;
}

describe("metrics of screenings, webhooks and cases", () => {
  it("shows each new series with the values the screening and the database give", async () => {
    const { clientId, apiKey } = await createTestClient();
    await importRules({
      clientId,
      rules: [
        {
          id: "BIG",
          name: "Big",
          subject: "transaction",
          status: "active",
          riskLevel: "high",
          recommendedAction: "REVIEW",
          reason: "big",
          condition: "transaction.amount > 1000 && aggregates.recent >= 0",
          aggregates: { recent: { function: "count", over: "transaction", groupBy: "userId", window: "1h" } },
        },
      ],
    });
    const subscribed = await call(subscribe as never, {
      apiKey,
      body: {
        url: "http://127.0.0.1:9/hook",
        events: ["transaction.screened"],
        secret: "whsec_metrics-test",
      },
    });
    expect(subscribed.status).toBe(200);

    const before = await scrape();
    const readsBefore = valueOf(before, "screening_aggregate_read_seconds_count") ?? 0;

    const screened = await call(postTransaction as never, {
      apiKey,
      body: {
        id: "metrics-tx-1",
        userId: "metrics-user",
        status: "APPROVED",
        currencyCode: "USD",
        amount: 5000,
        timestamp: Date.now() - 1000,
      },
    });
    expect(screened.status).toBe(200);
    expect(screened.body.riskLevel).toBe("high");

    await new Promise((r) => setTimeout(r, NEXT_READ_MS));
    let text = await scrape();
    let db = await databaseCounts();
    expect(valueOf(text, "screening_aggregate_read_seconds_count")).toBeGreaterThanOrEqual(readsBefore + 1);
    expect(valueOf(text, 'screening_aggregate_read_seconds_bucket{le="+Inf"}')).toBe(
      valueOf(text, "screening_aggregate_read_seconds_count"),
    );
    expect(valueOf(text, 'screenings_total{subject="transaction",risk_level="high",action="REVIEW"}')).toBe(
      1,
    );
    expect(valueOf(text, 'rule_hits_total{rule="BIG"}')).toBe(1);
    expect(db.opened).toBe(1);
    expect(db.pending).toBe(1);
    expect(valueOf(text, "cases_opened_total")).toBe(db.opened);
    expect(valueOf(text, "cases_overdue")).toBe(0);
    expect(valueOf(text, "webhook_deliveries_pending")).toBe(db.pending);
    expect(valueOf(text, "webhook_oldest_pending_delivery_age_seconds")).toBeGreaterThan(0);
    expect(valueOf(text, 'job_runs{state="due"}')).toBe(db.due);
    expect(valueOf(text, 'job_runs{state="leased"}')).toBe(db.leased);
    expect(valueOf(text, 'job_runs{state="lease_expired"}')).toBe(0);
    expect(valueOf(text, "webhook_delivery_latency_seconds_count") ?? 0).toBe(0);

    // The case's SLA passes; the delivery's attempt succeeds.
    await prisma.$executeRaw`UPDATE cases SET "dueAt" = now() - interval '1 minute' WHERE "clientId" = ${clientId}`;
    const delivery = await prisma.webhookDelivery.findFirstOrThrow({ where: { clientId } });
    const recorded = await deliveredFirstTry(delivery.id);
    expect(recorded.status).toBe("delivered");

    await new Promise((r) => setTimeout(r, NEXT_READ_MS));
    text = await scrape();
    db = await databaseCounts();
    expect(db.overdue).toBe(1);
    expect(valueOf(text, "cases_overdue")).toBe(1);
    expect(valueOf(text, "webhook_deliveries_pending")).toBe(0);
    expect(valueOf(text, "webhook_oldest_pending_delivery_age_seconds")).toBe(0);
    expect(valueOf(text, 'webhook_delivery_attempts_total{outcome="delivered"}')).toBe(1);
    expect(valueOf(text, "webhook_delivery_latency_seconds_count")).toBe(1);
    const latency = valueOf(text, "webhook_delivery_latency_seconds_sum")!;
    const sinceCreation = (Date.now() - delivery.createdAt.getTime()) / 1000;
    expect(latency).toBeGreaterThan(0);
    expect(latency).toBeLessThanOrEqual(sinceCreation);

    // A repeat of the same attempt (the driver may record one twice) is not a second delivery.
    await deliveredFirstTry(delivery.id);
    expect(valueOf(await scrape(), "webhook_delivery_latency_seconds_count")).toBe(1);
  });
});
