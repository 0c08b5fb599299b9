// Starts the service: embedded database when DATABASE_URL is unset, migrations, demo data (dev), then Next.js.
import { spawn } from "node:child_process";
import cluster from "node:cluster";
import path from "node:path";
import { answerRateLimitMessage } from "../lib/http/rate-limit";
import { answerMetricsMessage } from "../lib/ops/cluster-metrics";
import { localSecrets } from "../lib/local-secrets";
import { DATA_DIR, startEmbeddedDatabase, type TEmbeddedDatabase } from "../lib/embedded/server";
import { checkStartup, exitWithConfigurationErrors } from "../lib/startup/check-startup";
import { defaultServerProcesses, isLocalDatabase } from "../lib/startup/server-processes";

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: process.env });
    child.on("exit", (code) => resolve(code ?? 1));
    child.on("error", () => resolve(1));
  });
}

export async function launch(mode: "dev" | "start"): Promise<void> {
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  const port = process.env.PORT ?? "3000";
  // Before anything starts: a bad variable or an unreachable database stops here, named, with exit 1.
  const problems = await checkStartup(process.env);
  if (problems.length > 0) exitWithConfigurationErrors(problems);
  let embedded: TEmbeddedDatabase | null = null;
  if (!process.env.DATABASE_URL) {
    embedded = await startEmbeddedDatabase();
    process.env.DATABASE_URL = embedded.url;
    // One connection: the PGlite socket server serves one session, and a transaction on one connection
    // disturbs statements of the others.
    process.env.DATABASE_POOL_SIZE = "1";
    // One session behind every connection (this process's seed, then the server's): a statement name
    // prepared by one is taken for the next, so statements go unnamed.
    process.env.DATABASE_PREPARED_STATEMENTS = "off";
    process.env.JOB_DRIVER_LISTEN = "off";
    console.log(`Embedded database (PGlite) in ${path.join(DATA_DIR, "pglite")}`);
  }
  if (!process.env.NEXTAUTH_SECRET || !process.env.WEBHOOK_SECRET_KEY) {
    // Unset on a laptop or demo: generated once into .data/secrets.json (see lib/local-secrets.ts).
    const secrets = localSecrets();
    process.env.NEXTAUTH_SECRET ??= secrets.NEXTAUTH_SECRET;
    process.env.WEBHOOK_SECRET_KEY ??= secrets.WEBHOOK_SECRET_KEY;
  }

  if (embedded || mode === "dev") {
    // Asynchronous: the embedded database answers from this process's event loop.
    const status = await run(process.execPath, [
      path.resolve("node_modules/prisma/build/index.js"),
      "migrate",
      "deploy",
    ]);
    if (status !== 0) {
      await embedded?.stop();
      process.exit(status);
    }
  }
  if (mode === "dev") {
    const { seedDemo } = await import("../prisma/seed");
    await seedDemo({ print: true, baseUrl: `http://localhost:${port}` });
    const { prisma } = await import("../lib/db");
    await prisma.$disconnect();
  }

  // Next's own entry point, not npx, so that signals reach the server itself; `start` through
  // scripts/next-server.mjs, which drains on SIGTERM (lib/ops/graceful-shutdown.ts).
  const nextBin = path.resolve(
    mode === "start" ? "scripts/next-server.mjs" : "node_modules/next/dist/bin/next",
  );
  const workers = serverProcesses(mode, embedded !== null);
  if (workers > 1) return startCluster(nextBin, port, workers);
  const child = spawn(process.execPath, [nextBin, mode, "-p", port], { stdio: "inherit", env: process.env });
  const shutdown = (signal: NodeJS.Signals) => {
    child.kill(signal);
    killAfterGrace(() => child.kill("SIGKILL"));
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  child.on("exit", (code) => {
    void (embedded ? embedded.stop() : Promise.resolve()).finally(() => process.exit(code ?? 0));
  });
}

/**
 * A server process drains within SHUTDOWN_GRACE_MS by itself; one that does not (stuck) is killed a
 * little later, so that a stop always ends.
 */
function killAfterGrace(kill: () => void): void {
  const grace = Number(process.env.SHUTDOWN_GRACE_MS || 25_000) + Number(process.env.SHUTDOWN_DELAY_MS || 0);
  setTimeout(kill, grace + 5_000).unref();
}

/**
 * Server processes for `npm start` on PostgreSQL: one per core, half the cores when the database runs on this
 * machine (`defaultServerProcesses`); WEB_CONCURRENCY overrides (1 is a single process). Always one in dev and
 * on the embedded database, which serves one connection.
 */
function serverProcesses(mode: "dev" | "start", embedded: boolean): number {
  if (mode !== "start" || embedded) return 1;
  const raw = process.env.WEB_CONCURRENCY;
  if (raw === undefined || raw === "") {
    const count = defaultServerProcesses(process.env.DATABASE_URL);
    if (isLocalDatabase(process.env.DATABASE_URL))
      console.log(
        `${count} server process(es): the database runs on this machine, so half its cores at most (WEB_CONCURRENCY overrides)`,
      );
    return count;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`WEB_CONCURRENCY must be a positive integer (got "${raw}")`);
    process.exit(1);
  }
  return n;
}

/**
 * `next start` in `count` cluster workers sharing the port (the primary hands out connections), with
 * the per-key rate limit held here for all of them, and a worker that dies replaced.
 */
function startCluster(nextBin: string, port: string, count: number): void {
  cluster.setupPrimary({ exec: nextBin, args: ["start", "-p", port] });
  const env = { RSS_RATE_LIMIT_IPC: "1" };
  let stopping = false;
  cluster.on("message", (worker, message) => {
    const reply = (answer: object) => {
      if (worker.isConnected()) worker.send(answer);
    };
    if (!answerMetricsMessage(message, reply)) answerRateLimitMessage(message, reply);
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`server process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork(env);
  });
  const shutdown = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    killAfterGrace(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    });
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  console.log(`Starting ${count} server processes on port ${port} (WEB_CONCURRENCY)`);
  for (let i = 0; i < count; i++) cluster.fork(env);
}
