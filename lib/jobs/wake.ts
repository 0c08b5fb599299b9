import { env } from "@/lib/env";
import { jobsPool } from "@/lib/db";
import { JOB_WORK_CHANNEL } from "@/lib/jobs/listen";
import { logError } from "@/lib/log";

// Wakes the job drivers after a commit that wrote work for them, from outside the writing transaction.
//
// A NOTIFY inside a transaction serialises commits across the whole cluster: at COMMIT the notifying
// transaction takes an exclusive lock and holds it until its commit record is flushed (migration
// 20261128060000_job_wakeup_after_commit). The screenings write outbox rows marked "writerWakes", which the
// insert trigger does not notify for, and call wakeJobDrivers() once their statement has committed:
//
// - the drivers of this process are woken at once, in process (no round trip);
// - the drivers of other processes and machines by a NOTIFY of its own, sent at most every NOTIFY_EVERY_MS
//   per process: the first wake after a quiet spell at once, later ones together at the end of the spell.
//   So a process under load holds the notify lock about 20 times a second instead of on every screening,
//   and no wake is lost: the last one is always followed by a NOTIFY.
//
// A NOTIFY that fails (the database away) is not retried: every driver also polls (lib/jobs/driver.ts).

/** The least time between two NOTIFYs of this process. */
export const NOTIFY_EVERY_MS = 50;

/** The statement of that NOTIFY (the statement-count tests leave it out: it is no request's own). */
export const NOTIFY_STATEMENT = `SELECT pg_notify('${JOB_WORK_CHANNEL}', '')`;

type TWakeState = {
  drivers: Set<() => void>;
  lastNotify: number;
  pending: NodeJS.Timeout | null;
  lastErrorLog: number;
};

// On globalThis: Next.js may load this module once for instrumentation (which starts the driver) and once
// for the route handlers (which wake it).
const globalForWake = globalThis as unknown as { jobWake?: TWakeState };

function state(): TWakeState {
  return (globalForWake.jobWake ??= { drivers: new Set(), lastNotify: 0, pending: null, lastErrorLog: 0 });
}

/** A driver of this process, woken by wakeJobDrivers(); the answer unregisters it. */
export function registerLocalDriver(wake: () => void): () => void {
  const { drivers } = state();
  drivers.add(wake);
  return () => void drivers.delete(wake);
}

/**
 * Call after the commit of outbox rows marked "writerWakes" (never inside the transaction: a driver woken
 * before the commit finds nothing and waits for its poll).
 */
export function wakeJobDrivers(): void {
  const s = state();
  for (const wake of s.drivers) wake();
  // The embedded database serves one connection and one process: nobody else listens there.
  if (env.DATABASE_POOL_SIZE <= 1 || s.pending) return;
  const wait = s.lastNotify + NOTIFY_EVERY_MS - Date.now();
  if (wait <= 0) return notify(s);
  s.pending = setTimeout(() => {
    s.pending = null;
    notify(s);
  }, wait);
}

function notify(s: TWakeState): void {
  s.lastNotify = Date.now();
  // the background pool: the NOTIFY never waits for, nor takes, a screening's connection
  const pool = jobsPool();
  // shutting down (lib/ops/graceful-shutdown.ts): the other processes' polls find the work
  if (pool.ended) return;
  pool.query(NOTIFY_STATEMENT).catch((err: unknown) => {
    if (Date.now() - s.lastErrorLog < 60_000) return;
    s.lastErrorLog = Date.now();
    logError("could not notify the job drivers; they will find the work by their poll", err);
  });
}
