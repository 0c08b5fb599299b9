import type { Server } from "node:http";
import { jobsPool, pgPool } from "@/lib/db";
import { env } from "@/lib/env";
import { stopBackgroundJobs } from "@/lib/jobs/start";
import { flushJobWake } from "@/lib/jobs/wake";
import { logError, logInfo } from "@/lib/log";
import { startDraining } from "@/lib/ops/lifecycle";

// SIGTERM (or SIGINT) in a server process started by scripts/next-server.mjs, which owns the signals:
// readiness turns 503 at once; after SHUTDOWN_DELAY_MS the server stops accepting and answers what it
// has accepted; the job driver claims nothing more and finishes its runs; at SHUTDOWN_GRACE_MS what is
// left is cut: open connections closed, unfinished runs handed back for another process. Then exit.

const globalForShutdown = globalThis as unknown as { rssShutdownInstalled?: boolean };

function httpServer(): Server | undefined {
  return (globalThis as Record<symbol, Server | undefined>)[Symbol.for("rss.httpServer")];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when the server has closed, or at the deadline after cutting the connections still open. */
async function closeServer(server: Server, deadline: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections between two requests would hold the close open until they time out.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<void>((resolve) => {
    timer = setTimeout(
      () => {
        server.closeAllConnections();
        resolve();
      },
      Math.max(0, deadline - Date.now()),
    );
  });
  await Promise.race([closed, cut]);
  clearInterval(idle);
  clearTimeout(timer);
}

export async function shutDown(signal: string): Promise<void> {
  const started = Date.now();
  const deadline = started + env.SHUTDOWN_GRACE_MS;
  startDraining();
  logInfo("shutting down: readiness 503", {
    signal,
    graceMs: env.SHUTDOWN_GRACE_MS,
    delayMs: env.SHUTDOWN_DELAY_MS,
  });
  if (env.SHUTDOWN_DELAY_MS > 0) await sleep(Math.min(env.SHUTDOWN_DELAY_MS, env.SHUTDOWN_GRACE_MS));
  const server = httpServer();
  const [, handedBack] = await Promise.all([
    server ? closeServer(server, deadline) : Promise.resolve(),
    stopBackgroundJobs(deadline).catch((err: unknown) => {
      logError("job driver did not stop cleanly", err);
      return 0;
    }),
  ]);
  // the other processes' drivers are told of this process's last writes before its pools close
  await flushJobWake();
  await Promise.allSettled([jobsPool(), pgPool()].map((pool) => (pool.ended ? null : pool.end())));
  logInfo("shut down", { signal, ms: Date.now() - started, jobRunsHandedBack: handedBack });
}

/** Once per process, and only where scripts/next-server.mjs took the signals from Next.js. */
export function installGracefulShutdown(): void {
  if (globalForShutdown.rssShutdownInstalled || !process.env.NEXT_MANUAL_SIG_HANDLE) return;
  globalForShutdown.rssShutdownInstalled = true;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    void shutDown(signal)
      .catch((err: unknown) => logError("shutdown failed", err))
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
