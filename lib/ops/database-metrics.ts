import client from "prom-client";
import { jobsPool } from "@/lib/db";

// Metrics read from the database when /metrics is scraped, not counted by a process: the webhook
// delivery backlog, the job runs by state, the cases opened and overdue. One statement (on the job
// driver's pool, not the requests') answers them all, at most once per CACHE_MS per process, and a
// scrape never waits more than QUERY_TIMEOUT_MS for it: a database that does not answer leaves the
// last values (or none) instead of failing the scrape. Every process of a deployment reads the same
// database, so the cluster aggregation takes the largest value, not the sum; across instances, query
// them with max() (docs/operations.md).

const CACHE_MS = 1_000;
const QUERY_TIMEOUT_MS = 2_000;

type TSnapshot = {
  deliveriesPending: number;
  oldestPendingSeconds: number;
  runsDue: number;
  runsLeased: number;
  runsLeaseExpired: number;
  casesOpened: number;
  casesOverdue: number;
};

// Pending deliveries: the partial index "webhook_deliveries_pending_due_idx". Runs queued or running:
// "job_runs_status_runAt_idx" (completed runs, the many, are not visited). Cases are never deleted, so
// their count is the number ever opened.
const SNAPSHOT_SQL = `
  SELECT
    (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS "deliveriesPending",
    (SELECT COALESCE(extract(epoch FROM now() - min("createdAt")), 0) FROM webhook_deliveries
      WHERE status = 'pending')::float8 AS "oldestPendingSeconds",
    (SELECT count(*) FROM job_runs WHERE status = 'queued' AND "runAt" <= now())::int AS "runsDue",
    (SELECT count(*) FROM job_runs WHERE status = 'running' AND "leaseUntil" >= now())::int AS "runsLeased",
    (SELECT count(*) FROM job_runs WHERE status = 'running' AND "leaseUntil" < now())::int AS "runsLeaseExpired",
    (SELECT count(*) FROM cases)::int AS "casesOpened",
    (SELECT count(*) FROM cases WHERE status <> 'closed' AND "dueAt" < now())::int AS "casesOverdue"`;

const globalForSnapshot = globalThis as unknown as {
  rssDatabaseSnapshot?: { at: number; value: Promise<TSnapshot | null> };
  rssLastDatabaseSnapshot?: TSnapshot;
};

async function readSnapshot(): Promise<TSnapshot | null> {
  try {
    const { rows } = await jobsPool().query<TSnapshot>({
      text: SNAPSHOT_SQL,
      query_timeout: QUERY_TIMEOUT_MS,
    } as { text: string });
    return (globalForSnapshot.rssLastDatabaseSnapshot = rows[0]!);
  } catch {
    return globalForSnapshot.rssLastDatabaseSnapshot ?? null;
  }
}

function snapshot(): Promise<TSnapshot | null> {
  const cached = globalForSnapshot.rssDatabaseSnapshot;
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  const value = readSnapshot();
  globalForSnapshot.rssDatabaseSnapshot = { at: Date.now(), value };
  return value;
}

function gauge(
  name: string,
  help: string,
  set: (g: client.Gauge, s: TSnapshot) => void,
  labelNames: string[] = [],
) {
  if (client.register.getSingleMetric(name)) return;
  new client.Gauge({
    name,
    help,
    labelNames,
    aggregator: "max",
    async collect() {
      const s = await snapshot();
      if (s) set(this, s);
    },
  });
}

/** Registers the scrape-time metrics in prom-client's global registry (once per process). */
export function registerDatabaseMetrics(): void {
  gauge(
    "webhook_deliveries_pending",
    "Webhook delivery backlog: deliveries not yet delivered nor failed (all clients), read at scrape time",
    (g, s) => g.set(s.deliveriesPending),
  );
  gauge(
    "webhook_oldest_pending_delivery_age_seconds",
    "Age of the oldest pending webhook delivery (0 when none), read at scrape time",
    (g, s) => g.set(s.oldestPendingSeconds),
  );
  gauge(
    "job_runs",
    "Job runs by state: due (queued, to be claimed now), leased (held by a live lease), lease_expired (held by a process that stopped renewing it: taken over once found), read at scrape time",
    (g, s) => {
      g.set({ state: "due" }, s.runsDue);
      g.set({ state: "leased" }, s.runsLeased);
      g.set({ state: "lease_expired" }, s.runsLeaseExpired);
    },
    ["state"],
  );
  gauge(
    "cases_overdue",
    "Cases not closed whose SLA due time has passed (all clients), read at scrape time",
    (g, s) => g.set(s.casesOverdue),
  );
  if (!client.register.getSingleMetric("cases_opened_total"))
    new client.Counter({
      name: "cases_opened_total",
      help: "Cases opened (all clients, ever: cases are never deleted), read at scrape time",
      aggregator: "max",
      async collect() {
        const s = await snapshot();
        if (!s) return;
        this.reset();
        this.inc(s.casesOpened);
      },
    });
}
