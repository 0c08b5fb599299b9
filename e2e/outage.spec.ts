import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { startReceiver, waitFor, type TReceiver } from "../tests/support/webhook-receiver";
import {
  createScreeningClient,
  createTestDatabase,
  expectStoredAndDelivered,
  npmStart,
  screeningLoad,
  serverEnvironment,
  sleep,
  subscribeWebhooks,
  type TServer,
} from "./server-harness";

// A PostgreSQL outage under load: the test runs its own PostgreSQL cluster (initdb + pg_ctl on
// another port) so that it can stop and start it under `npm start` with 16 connections of screening
// load and a webhook subscription. While it is down, /v1 answers 503 SERVICE_UNAVAILABLE with
// Retry-After (never a 500) and readiness names the database; once it is back the service serves and
// the job driver delivers again without a restart; every 200 is stored and every delivery arrives.

const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
const PG_PORT = Number(process.env.E2E_OUTAGE_PG_PORT ?? "3174");
const PORT = Number(process.env.E2E_OUTAGE_PORT ?? "3173");
const SECRET = "whsec_outage-spec";
const ADMIN_URL = `postgresql://postgres@127.0.0.1:${PG_PORT}/postgres`;

let dataDir = "";
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let server: TServer | undefined;
let receiver: TReceiver | undefined;

/** PostgreSQL refuses to run as root: the cluster's commands run as the postgres user when we are root. */
function asPostgres(command: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  execFileSync(root ? "runuser" : command, root ? ["-u", "postgres", "--", command, ...args] : args, {
    stdio: "pipe",
  });
}

const pgCtl = (...args: string[]) => asPostgres(path.join(PG_BIN, "pg_ctl"), ["-D", dataDir, ...args]);
const startPostgres = () =>
  pgCtl(
    "-w",
    "-l",
    path.join(dataDir, "server.log"),
    "-o",
    `-p ${PG_PORT} -k ${dataDir} -c listen_addresses=127.0.0.1`,
    "start",
  );
const stopPostgres = () => pgCtl("-w", "-m", "fast", "stop");

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(tmpdir(), "rss-outage-pg-"));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dataDir, uid, gid);
  }
  chmodSync(dataDir, 0o700);
  asPostgres(path.join(PG_BIN, "initdb"), ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync"]);
  startPostgres();
  database = await createTestDatabase("rss_outage", ADMIN_URL);
  server = npmStart(serverEnvironment(PORT, database.url), { capture: true });
  receiver = await startReceiver(SECRET);
});

test.afterAll(async () => {
  await server?.stop("SIGKILL");
  await receiver?.close();
  try {
    stopPostgres();
  } catch {
    // already stopped
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test("a PostgreSQL restart under load: 503 with Retry-After meanwhile, then serving and delivering again", async () => {
  test.setTimeout(240_000);
  const { clientId, apiKey } = createScreeningClient(database!.url, "Outage");
  await server!.start();
  await subscribeWebhooks(server!.base, apiKey, receiver!, SECRET);

  const unavailable = (status: number, body: unknown, headers: Headers) =>
    status === 503 &&
    (body as { error?: { type?: string } }).error?.type === "SERVICE_UNAVAILABLE" &&
    Number(headers.get("retry-after")) > 0;
  const load = screeningLoad(server!.base, apiKey, 16, { prefix: "outage", acceptable: unavailable });
  await waitFor(() => load.answered.size >= 20, 60_000, "screenings served before the outage");

  stopPostgres();
  const ready = await waitFor(
    async () => {
      const res = await fetch(`${server!.base}/readyz`);
      const body = (await res.json()) as { checks: { database: string } };
      return res.status === 503 && body.checks.database === "unreachable" ? body : null;
    },
    30_000,
    "readiness naming the database",
  );
  expect(ready.checks.database).toBe("unreachable");
  await waitFor(() => (load.declined.get(503) ?? 0) > 0, 30_000, "a 503 from /v1 while the database is down");
  await sleep(2000);

  startPostgres();
  const back = Date.now();
  const answeredAtReturn = load.answered.size;
  await waitFor(
    () => load.answered.size > answeredAtReturn,
    60_000,
    "a screening served after the database returned",
  );
  const servedAfterMs = Date.now() - back;
  await waitFor(async () => (await fetch(`${server!.base}/readyz`)).status === 200, 30_000, "ready again");
  await sleep(3000);
  await load.stop();

  expect(load.refused, "every answer is a 200 or a 503 SERVICE_UNAVAILABLE with Retry-After").toEqual([]);
  const result = await expectStoredAndDelivered(database!.url, clientId, load.answered, receiver!);
  console.log(
    `outage: ${load.answered.size} screenings answered 200, ${load.declined.get(503)} answered 503 while the ` +
      `database was down, served again ${servedAfterMs} ms after it returned; ${result.stored} stored, ` +
      `${result.deliveries} deliveries all received (${result.repeats.length} repeated)`,
  );
});
