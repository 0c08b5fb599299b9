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
// - the drivers of other processes and machines by a NOTIFY of its own, one at a time and at most every
//   NOTIFY_EVERY_MS per process: the first wake after a quiet spell at once, later ones together at the end
//   of the interval (or after the NOTIFY in flight). So a process under load holds the notify lock about 20
//   times a second instead of on every screening, and every wake is followed by a NOTIFY sent after it; a
//   process that shuts down sends the one it still owes (flushJobWake).
//
// A NOTIFY that fails (the database away) is not retried: every driver also polls (lib/jobs/driver.ts).

/** The least time between two NOTIFYs of this process. */
export const NOTIFY_EVERY_MS = 50;

/** The statement of that NOTIFY (the statement-count tests leave it out: it is no request's own). */
export const NOTIFY_STATEMENT = `SELECT pg_notify('${JOB_WORK_CHANNEL}', '')`;

type TWakeState = {
  drivers: Set<() => void>;
  /** performance.now() of the last NOTIFY sent (a monotonic clock: a clock step cannot hold NOTIFYs back) */
  lastNotify: number;
  /** the NOTIFY due at the end of the current interval */
  timer: NodeJS.Timeout | null;
  /** the NOTIFY in flight: one at a time per process */
  inFlight: Promise<void> | null;
  /** a wake arrived while a NOTIFY was in flight: it may have been sent before that commit, so send another */
  again: boolean;
  lastErrorLog: number;
};

// On globalThis: Next.js may load this module once for instrumentation (which starts the driver) and once
// for the route handlers (which wake it).
const globalForWake = globalThis as unknown as { jobWake?: TWakeState };

function state(): TWakeState {
  return (globalForWake.jobWake ??= {
    drivers: new Set(),
    lastNotify: -Infinity,
    timer: null,
    inFlight: null,
    again: false,
    lastErrorLog: -Infinity,
  });
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
  schedule(s);
}

function schedule(s: TWakeState): void {
  if (s.timer || s.again) return;
  if (s.inFlight) {
    s.again = true;
    return;
  }
  const wait = s.lastNotify + NOTIFY_EVERY_MS - performance.now();
  if (wait <= 0) return send(s);
  s.timer = setTimeout(() => {
    s.timer = null;
    send(s);
  }, wait);
}

function send(s: TWakeState): void {
  s.lastNotify = performance.now();
  // the background pool: the NOTIFY never waits for, nor takes, a screening's connection
  const pool = jobsPool();
  // shut down (lib/ops/graceful-shutdown.ts flushed the last one first)
  if (pool.ending || pool.ended) return;
  s.inFlight = pool
    .query(NOTIFY_STATEMENT)
    .then(
      () => undefined,
      (err: unknown) => {
        if (performance.now() - s.lastErrorLog < 60_000) return;
        s.lastErrorLog = performance.now();
        logError("could not notify the job drivers; they will find the work by their poll", err);
      },
    )
    .finally(() => {
      s.inFlight = null;
      if (!s.again) return;
      s.again = false;
      schedule(s);
    });
}

/**
 * Sends at once the NOTIFY still owed (due at the end of the interval, or after the one in flight) and waits
 * for it: a process that shuts down leaves the other processes' drivers no work to find by their poll.
 */
export async function flushJobWake(): Promise<void> {
  const s = state();
  const owed = s.timer !== null || s.again;
  if (s.timer) clearTimeout(s.timer);
  s.timer = null;
  s.again = false;
  await s.inFlight;
  if (!owed) return;
  send(s);
  await s.inFlight;
}
