import { execFileSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { localInstance, startHaproxy, type TInstance } from "../scripts/cluster-local";
import { hasVersionedJobs, preparePreviousRelease, type TPreviousRelease } from "../scripts/previous-release";
import { startReceiver, type TReceiver } from "../tests/support/webhook-receiver";
import {
  admin,
  createScreeningClient,
  DEFAULT_ADMIN_URL,
  expectStoredAndDelivered,
  screeningLoad,
  serverEnvironment,
  sleep,
  subscribeWebhooks,
} from "./server-harness";

// A rolling upgrade under load: the previous release (a git ref, built once into .tools by
// scripts/previous-release.ts) serves alone behind HAProxy, with its job driver; the schema is migrated
// to this release's while it serves; this release starts beside it; the previous one gets SIGTERM. The
// load goes on through HAProxy the whole time. Run by `npm run test:ops` only (E2E_CLUSTER=1).
//
// The previous release is the commit in scripts/previous-release.ref (PREVIOUS_RELEASE_REF overrides it).
// This release's migrations include contract steps (alerts partitioned by month once the previous release
// stopped naming their unique index), applied while the previous release serves: it must keep screening,
// alerting and delivering on the new schema. A previous release without job versions (before 1632784)
// drops an outbox event it cannot know before the migration; the probe below checks either behaviour.

const PORT = Number(process.env.E2E_ROLLING_PORT ?? "3220");
const OLD_PORT = PORT + 1;
const NEW_PORT = PORT + 2;
const SECRET = "whsec_rolling-spec";
const METRICS_TOKEN = "rolling-metrics-token-0123456789";
const PROBE_EVENT = "rolling/only-a-newer-build";

let previous: TPreviousRelease;
let dbUrl: string;
let dbName: string;
let dir: string;
let haproxy: ChildProcess | null = null;
let instances: [TInstance, TInstance];
let receiver: TReceiver;

const migrate = (cwd: string) =>
  execFileSync(
    process.execPath,
    [path.join(cwd, "node_modules/prisma/build/index.js"), "migrate", "deploy"],
    {
      cwd,
      env: { ...process.env, DATABASE_URL: dbUrl },
      stdio: "pipe",
    },
  );

const query = <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
  admin(dbUrl, async (c) => (await c.query<T>(sql, values)).rows);

const servedScreenings = async (base: string) => {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const m = /^http_requests_total\{route="\/v1\/transaction",method="POST",status="200"\} (\d+)/m.exec(
    await res.text(),
  );
  return Number(m?.[1] ?? 0);
};

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(900_000);
  previous = preparePreviousRelease({ log: (line) => console.log(line) });
  dbName = `rss_rolling_${Date.now().toString(36)}`;
  await admin(DEFAULT_ADMIN_URL, (c) => c.query(`CREATE DATABASE "${dbName}"`));
  const url = new URL(DEFAULT_ADMIN_URL);
  url.pathname = `/${dbName}`;
  dbUrl = url.toString();
  migrate(previous.dir); // the previous release's schema
  receiver = await startReceiver(SECRET);
  dir = mkdtempSync(path.join(os.tmpdir(), "rss-rolling-"));
  chmodSync(dir, 0o755);
  const env = serverEnvironment(PORT, dbUrl, {
    WEB_CONCURRENCY: "1",
    RATE_LIMIT_PER_SECOND: "10000",
    METRICS_TOKEN,
  });
  instances = [
    localInstance("previous", OLD_PORT, env, "ignore", previous.dir),
    localInstance("current", NEW_PORT, env, "ignore"),
  ];
});

test.afterAll(async () => {
  await Promise.all((instances ?? []).map((i) => i.stop("SIGKILL")));
  haproxy?.kill("SIGTERM");
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (dbName)
    await admin(DEFAULT_ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
});

test("the previous release and this one side by side under load, rolled one at a time: nothing lost", async () => {
  test.setTimeout(600_000);
  const [old, current] = instances;
  // by the previous release's CLI: the database has its schema (this release's code may read columns it adds)
  const { clientId, apiKey } = createScreeningClient(dbUrl, "Rolling", previous.dir);
  await old.start();
  haproxy = await startHaproxy(PORT, [old, current], dir, "ignore");
  const base = `http://127.0.0.1:${PORT}`;
  // on the instance itself: HAProxy is still finding out that the other one is not up yet
  await subscribeWebhooks(old.base, apiKey, receiver, SECRET);
  for (let ok = 0; ok < 3;) {
    ok = (await fetch(`${base}/readyz`)).status === 200 ? ok + 1 : 0;
    await sleep(500);
  }

  // the only answer besides 200 a rolling upgrade may give: the draining 503 with Retry-After
  const load = screeningLoad(base, apiKey, 4, {
    prefix: "roll",
    acceptable: (status, _body, headers) => status === 503 && /^\d+$/.test(headers.get("retry-after") ?? ""),
  });
  const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      expect(load.refused, `while waiting for ${what}`).toEqual([]);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(200);
    }
  };
  const more = (n: number) => {
    const target = load.answered.size + n;
    return until(`${n} more screenings answered`, () => load.answered.size >= target);
  };
  try {
    await more(40);

    // What the previous release's driver does on its own schema with an event it does not know.
    const probe = async (id: string) =>
      query(`INSERT INTO outbox_events (id, name, data) VALUES ($1, $2, '{}')`, [id, PROBE_EVENT]);
    // Before versioned jobs it marks it dispatched without a run (drops it); from then on it leaves it.
    const versioned = hasVersionedJobs(previous.dir);
    await probe("probe-before-migration");
    if (versioned) await sleep(3000);
    else
      await until("the previous release's driver to take the probe", async () => {
        const [row] = await query(
          `SELECT "dispatchedAt" FROM outbox_events WHERE id = 'probe-before-migration'`,
        );
        return row?.dispatchedAt != null;
      });

    // 1. The schema moves on while the previous release serves.
    migrate(process.cwd());
    const migratedAt = new Date();
    await probe("probe-after-migration");
    await more(40);
    expect((await fetch(`${old.base}/readyz`)).status, "the previous release stays ready").toBe(200);

    // 2. This release starts beside it and takes its share of the load.
    const currentStartedAt = new Date();
    await current.start();
    await until(
      "this release serving through HAProxy",
      async () => (await servedScreenings(current.base)) >= 20,
    );
    expect(await servedScreenings(old.base)).toBeGreaterThan(0);

    // 3. The previous release is stopped (SIGTERM: it drains) while the load goes on.
    const stopped = old.stop("SIGTERM");
    await more(40);
    await stopped;
    const stoppedAt = Date.now();
    await more(40);
    await load.stop();

    expect(load.refused, "only 200s and draining 503s with Retry-After").toEqual([]);
    expect(load.cut(), `requests without an answer: ${JSON.stringify([...load.unanswered])}`).toBe(0);
    // every acknowledged screening stored with its decision; every delivery received, signature verified
    const result = await expectStoredAndDelivered(dbUrl, clientId, load.answered, receiver, 120_000);
    expect(result.repeats, "deliveries received more than once").toEqual([]);
    const afterStop = receiver.received.filter((r) => r.verified && r.at > stoppedAt).length;
    expect(afterStop, "deliveries after the previous release stopped").toBeGreaterThan(0);

    // both drivers worked on the new schema: the previous one's alone between the migration and this
    // release's start, this one's alone after the previous one stopped (with this build's protocol)
    const [byDriver] = await query<{ previous: number; current: number }>(
      `SELECT count(*) FILTER (WHERE "createdAt" > $1 AND "dispatchedAt" < $2)::int AS previous,
              count(*) FILTER (WHERE "createdAt" > $3 AND "dispatchedBy" = 2)::int AS current
       FROM outbox_events WHERE name <> $4`,
      [migratedAt, currentStartedAt, new Date(stoppedAt), PROBE_EVENT],
    );
    expect(byDriver!.previous, "events the previous release dispatched after the migration").toBeGreaterThan(
      0,
    );
    expect(byDriver!.current, "events this release dispatched").toBeGreaterThan(0);
    // alerts (partitioned by this release's migration): one per screening the rule made high, by both
    // releases after the migration, each key once
    const alerted = await query<{ id: string; n: number }>(
      `SELECT "transactionId" AS id, count(*)::int AS n FROM alerts WHERE "clientId" = $1 GROUP BY 1 ORDER BY 1`,
      [clientId],
    );
    const high = [...load.answered].filter(([, level]) => level === "high").map(([id]) => id);
    expect(alerted).toEqual(high.sort().map((id) => ({ id, n: 1 })));
    const [alertsAfter] = await query<{ previous: number; keys: number; alerts: number }>(
      `SELECT count(*) FILTER (WHERE "createdAt" > $2 AND "createdAt" < $3)::int AS previous,
              (SELECT count(*)::int FROM alert_keys WHERE "clientId" = $1) AS keys, count(*)::int AS alerts
       FROM alerts WHERE "clientId" = $1`,
      [clientId, migratedAt, currentStartedAt],
    );
    expect(alertsAfter!.previous, "alerts the previous release made after the migration").toBeGreaterThan(0);
    expect(alertsAfter!.keys).toBe(alertsAfter!.alerts);
    // the runs finish just after their deliveries are recorded
    const leftOver = async () =>
      (
        await query<{ undispatched: number; unfinished: number; failed: number }>(
          `SELECT (SELECT count(*)::int FROM outbox_events WHERE "dispatchedAt" IS NULL AND name <> $1) AS undispatched,
                  (SELECT count(*)::int FROM job_runs WHERE status IN ('queued', 'running')) AS unfinished,
                  (SELECT count(*)::int FROM job_runs WHERE status = 'failed') AS failed`,
          [PROBE_EVENT],
        )
      )[0]!;
    let left = await leftOver();
    for (let i = 0; i < 60 && left.undispatched + left.unfinished > 0; i++) {
      await sleep(500);
      left = await leftOver();
    }
    expect(left).toEqual({ undispatched: 0, unfinished: 0, failed: 0 });

    // The probe: before the migration a previous release without versioned jobs marked it dispatched
    // without a run (it dropped it); after the migration it left it for a build that knows it, as did
    // this one.
    const probes = await query<{ id: string; dispatched: boolean; runs: number }>(
      `SELECT o.id, o."dispatchedAt" IS NOT NULL AS dispatched,
              (SELECT count(*)::int FROM job_runs j WHERE j."eventId" = o.id) AS runs
       FROM outbox_events o WHERE o.name = $1 ORDER BY o.id`,
      [PROBE_EVENT],
    );
    expect(probes).toEqual([
      { id: "probe-after-migration", dispatched: false, runs: 0 },
      { id: "probe-before-migration", dispatched: !versioned, runs: 0 },
    ]);
    console.log(
      `rolling upgrade from ${previous.ref} (${previous.commit.slice(0, 12)}): ${load.answered.size} screenings ` +
        `answered, declined ${JSON.stringify([...load.declined])}; ${result.stored} stored, ` +
        `${result.deliveries} deliveries received once each (${afterStop} after the previous release stopped); ` +
        `events dispatched after the migration: ${byDriver!.previous} by the previous release, ` +
        `${byDriver!.current} by this one`,
    );
  } finally {
    await load.stop();
  }
});
