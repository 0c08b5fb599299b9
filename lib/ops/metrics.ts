import { readFileSync } from "node:fs";
import path from "node:path";
import client from "prom-client";
import { jobsPool, pgPool } from "@/lib/db";
import { registerDatabaseMetrics } from "@/lib/ops/database-metrics";

// Prometheus metrics of this process (prom-client's global registry). With several server processes
// the cluster primary aggregates them (lib/ops/cluster-metrics.ts), so /metrics counts the whole
// instance whichever process answers. Each metric is made once per process, whichever bundle asks.
// The list, with what each means, is in docs/operations.md.

function metric<T>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = metric(
  "http_requests_total",
  () =>
    new client.Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by route pattern, method and status",
      labelNames: ["route", "method", "status"] as const,
    }),
);
export const httpDuration = metric(
  "http_request_duration_seconds",
  () =>
    new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time from the request's arrival to the end of its answer, by route pattern, method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: LATENCY_BUCKETS,
    }),
);
export const screenings = metric(
  "screenings_total",
  () =>
    new client.Counter({
      name: "screenings_total",
      help: "Screening decisions made, by subject, risk level and recommended action (counted when decided, before the write)",
      labelNames: ["subject", "risk_level", "action"] as const,
    }),
);
export const ruleHits = metric(
  "rule_hits_total",
  () =>
    new client.Counter({
      name: "rule_hits_total",
      help: "Active rules that triggered in a screening decision, by rule id",
      labelNames: ["rule"] as const,
    }),
);
export const webhookAttempts = metric(
  "webhook_delivery_attempts_total",
  () =>
    new client.Counter({
      name: "webhook_delivery_attempts_total",
      help: "Webhook delivery attempts recorded, by the delivery's resulting status (delivered, pending: retry due, failed: no retry left)",
      labelNames: ["outcome"] as const,
    }),
);
export const jobStartDelay = metric(
  "job_run_start_delay_seconds",
  () =>
    new client.Histogram({
      name: "job_run_start_delay_seconds",
      help: "Job driver lag: from the commit of an event to the first execution of its run",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    }),
);
export const jobPassFailures = metric(
  "job_driver_pass_failures_total",
  () =>
    new client.Counter({
      name: "job_driver_pass_failures_total",
      help: "Job driver passes that failed (database unreachable, ...); the driver retries with backoff",
    }),
);
export const jobRunsInFlight = metric(
  "job_driver_runs_in_flight",
  () =>
    new client.Gauge({
      name: "job_driver_runs_in_flight",
      help: "Job runs this instance holds a lease on and is executing",
    }),
);
export const aggregateReadSeconds = metric(
  "screening_aggregate_read_seconds",
  () =>
    new client.Histogram({
      name: "screening_aggregate_read_seconds",
      help: "Screening reads of the stored subject and every aggregate its rules need (one statement each; on the usual path the API key is read by the same statement)",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    }),
);
export const webhookDeliveryLatency = metric(
  "webhook_delivery_latency_seconds",
  () =>
    new client.Histogram({
      name: "webhook_delivery_latency_seconds",
      help: "Commit to delivery: from a webhook delivery's creation (in the transaction that made its event) to the recording of its successful attempt",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
    }),
);
export const signInFailures = metric(
  "dashboard_sign_in_failures_total",
  () =>
    new client.Counter({
      name: "dashboard_sign_in_failures_total",
      help: "Failed dashboard sign-ins, by whether the account is now locked",
      labelNames: ["locked"] as const,
    }),
);

metric(
  "db_pool_connections",
  () =>
    new client.Gauge({
      name: "db_pool_connections",
      help: "Database pool connections by pool (requests, jobs) and state (in_use, idle, waiting: callers queued for one)",
      labelNames: ["pool", "state"] as const,
      collect() {
        const pools: Array<[string, ReturnType<typeof pgPool>]> = [["requests", pgPool()]];
        const jobs = jobsPool();
        if (jobs !== pools[0]![1]) pools.push(["jobs", jobs]);
        for (const [name, pool] of pools) {
          this.set({ pool: name, state: "in_use" }, pool.totalCount - pool.idleCount);
          this.set({ pool: name, state: "idle" }, pool.idleCount);
          this.set({ pool: name, state: "waiting" }, pool.waitingCount);
        }
      },
    }),
);

// The known label values start at 0, so that their series are there (and alerts can rate() them)
// before the first event.
for (const outcome of ["delivered", "pending", "failed"]) webhookAttempts.inc({ outcome }, 0);
for (const locked of ["false", "true"]) signInFailures.inc({ locked }, 0);

/** Times one screening read that carries the aggregates (the caller's statement, as it runs). */
export async function timeAggregateRead<T>(read: () => Promise<T>): Promise<T> {
  const end = aggregateReadSeconds.startTimer();
  try {
    return await read();
  } finally {
    end();
  }
}

/**
 * Counts a recorded delivery attempt by the delivery's resulting status and, when this attempt
 * delivered it (`deliveredNow`: not a repeat of an attempt already recorded), observes its
 * commit-to-delivery latency.
 */
export function observeDeliveryAttempt(row: {
  status: string;
  createdAt?: Date | string;
  deliveredNow?: boolean;
}): void {
  webhookAttempts.inc({ outcome: row.status });
  if (row.deliveredNow && row.createdAt !== undefined)
    webhookDeliveryLatency.observe(Math.max(0, Date.now() - new Date(row.createdAt).getTime()) / 1000);
}

registerDatabaseMetrics();

const globalForMetrics = globalThis as unknown as { rssDefaultMetrics?: boolean };
if (!globalForMetrics.rssDefaultMetrics) {
  globalForMetrics.rssDefaultMetrics = true;
  client.collectDefaultMetrics();
}

type TRoute = { pattern: string; test: RegExp; segments: number };

/** The app's route patterns from the build (`/v1/transaction/[id]`), so that labels stay few. */
function loadRoutes(): TRoute[] {
  try {
    const manifest = JSON.parse(
      readFileSync(path.resolve(".next/server/app-paths-manifest.json"), "utf8"),
    ) as Record<string, string>;
    return (
      Object.keys(manifest)
        .map((key) =>
          key
            .replace(/\/\([^/]+\)/g, "")
            .replace(/\/(page|route)$/, "")
            .replace(/^$/, "/"),
        )
        .filter((pattern, i, all) => all.indexOf(pattern) === i && !pattern.includes("_"))
        .map((pattern) => ({
          pattern,
          segments: pattern.includes("[...") ? Infinity : pattern.split("/").length,
          test: new RegExp(
            `^${pattern
              .split("/")
              .map((s) =>
                s.startsWith("[...")
                  ? ".+"
                  : s.startsWith("[")
                    ? "[^/]+"
                    : s.replace(/[.*+?^${}()|\\]/g, "\\$&"),
              )
              .join("/")}/?$`,
          ),
        }))
        // static segments before dynamic ones, catch-alls last
        .sort(
          (a, b) =>
            (a.pattern.includes("[") ? 1 : 0) - (b.pattern.includes("[") ? 1 : 0) || a.segments - b.segments,
        )
    );
  } catch {
    return [];
  }
}

let routes: TRoute[] | null = null;

export function routeOf(url: string): string {
  const pathname = url.split("?")[0] ?? "/";
  if (pathname.startsWith("/_next/")) return "/_next";
  routes ??= loadRoutes();
  const count = pathname.split("/").length;
  for (const route of routes)
    if ((route.segments === Infinity || route.segments === count) && route.test.test(pathname))
      return route.pattern;
  return "other";
}

/** Called by scripts/next-server.mjs when an answer is finished. */
export function observeRequest(method: string, url: string, status: number, seconds: number): void {
  const labels = { route: routeOf(url), method, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

/** The Prometheus text of this process, or of every process of the cluster when there is one. */
export async function metricsText(): Promise<{ contentType: string; text: string }> {
  const { clusterMetricsText } = await import("@/lib/ops/cluster-metrics");
  const text = (await clusterMetricsText()) ?? (await client.register.metrics());
  return { contentType: client.register.contentType, text };
}
