import { executeRun, type TExecutorConfig, type TServeInvoker } from "@/lib/jobs/execute-run";
import type { TJobFunction } from "@/lib/jobs/function-table";
import { listenForWork, type TWorkListener } from "@/lib/jobs/listen";
import { relayOutbox, type TRelayEvent } from "@/lib/jobs/relay";
import { claimRuns, dispatchOutbox, pendingWork, pruneCompletedRuns } from "@/lib/jobs/run-store";
import { logError, logInfo } from "@/lib/log";

// The background loop of the Node server. Embedded mode (no Inngest server): outbox rows become
// job runs, which are executed by calling the app's own serve endpoint with bounded concurrency.
// Relay mode: outbox rows are sent to the Inngest server, which calls the serve endpoint itself.
// Either way request handlers only ever write rows; nothing they do waits on this loop.

export type TJobDriverOptions = {
  mode: "embedded" | "relay";
  functions: readonly TJobFunction[];
  /** The serve endpoint, e.g. http://127.0.0.1:3000/api/inngest (embedded mode). */
  serveUrl: string;
  /** The serve handler of this process, called in process with the same signed request (embedded mode). */
  invoke?: TServeInvoker;
  /** The functions' execution engine in this process, no serve protocol (see TExecutorConfig). */
  runInProcess?: TExecutorConfig["runInProcess"];
  signingKey: string;
  /** Sends events to the Inngest server (relay mode). */
  send?: (events: TRelayEvent[]) => Promise<unknown>;
  /** Fallback poll when no notification arrives (work that becomes due later: retries, sleeps). */
  pollMs?: number;
  /**
   * A PostgreSQL connection string to LISTEN on for new work (outbox and run inserts notify at commit,
   * in every process), so work starts within milliseconds of its commit instead of at the next poll.
   * Unset: poll only (the embedded database serves one connection).
   */
  listen?: string;
  concurrency?: number;
  leaseMs?: number;
  requestTimeoutMs?: number;
  retryBaseMs?: number;
  unreachableDelayMs?: number;
  /** Wait before the first pass (the server starts listening after Next's register()). */
  startDelayMs?: number;
};

export type TJobDriver = {
  /** Looks for work now instead of at the next poll (e.g. right after a commit in this process). */
  wake: () => void;
  /** Stops polling and waits for the runs in progress. */
  stop: () => Promise<void>;
};

const PRUNE_EVERY_MS = 60 * 60_000;
const KEEP_COMPLETED_MS = 7 * 24 * 60 * 60_000;

export function startJobDriver(options: TJobDriverOptions): TJobDriver {
  const pollMs = options.pollMs ?? 250;
  const concurrency = options.concurrency ?? 16;
  const leaseMs = options.leaseMs ?? 30_000;
  const config: TExecutorConfig = {
    serveUrl: options.serveUrl,
    invoke: options.invoke,
    runInProcess: options.runInProcess,
    signingKey: options.signingKey,
    functions: new Map(options.functions.map((fn) => [fn.id, fn])),
    leaseMs,
    requestTimeoutMs: options.requestTimeoutMs ?? 5 * 60_000,
    retryBaseMs: options.retryBaseMs ?? 1000,
    unreachableDelayMs: options.unreachableDelayMs ?? 1000,
  };
  const send = options.send;
  if (options.mode === "relay" && !send) throw new Error("Relay mode needs a send function");

  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let failures = 0;
  let lastErrorLog = 0;
  let lastPrune = 0;
  // A wake that arrives during a pass is kept, so work committed while the pass ran is not left for the poll.
  let woken = false;

  const wake = () => {
    woken = true;
    wakeUp?.();
    wakeUp = null;
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** One pass; true when there may be more to do right away. */
  async function tick(): Promise<boolean> {
    const free = options.mode === "embedded" ? concurrency - inFlight.size : 0;
    const work = await pendingWork(new Date(), { runs: free > 0 });
    let more = false;
    if (work.outbox) {
      const moved = send ? await relayOutbox(send) : await dispatchOutbox(options.functions);
      more = moved > 0;
    }
    if (work.runs && free > 0) {
      const runs = await claimRuns(free, leaseMs);
      for (const run of runs) {
        const task = executeRun(run, config).finally(() => {
          inFlight.delete(task);
          // Refill in batches: a claim per finished run would cost two statements per run under load.
          if (inFlight.size <= concurrency / 2) wake();
        });
        inFlight.add(task);
      }
      more ||= runs.length === free;
    }
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await pruneCompletedRuns(new Date(Date.now() - KEEP_COMPLETED_MS));
    }
    return more;
  }

  async function loop(): Promise<void> {
    if (options.startDelayMs) await new Promise((resolve) => setTimeout(resolve, options.startDelayMs));
    while (!stopped) {
      let more = false;
      woken = false;
      try {
        more = await tick();
        failures = 0;
      } catch (err) {
        failures++;
        if (Date.now() - lastErrorLog > 60_000) {
          lastErrorLog = Date.now();
          logError("job driver pass failed; retrying", err);
        }
      }
      if (stopped) break;
      if (!more) await pause(pollMs * Math.min(2 ** failures, 40));
    }
  }

  logInfo("job driver started", {
    mode: options.mode,
    functions: options.functions.map((f) => f.id),
    concurrency,
    listen: Boolean(options.listen),
    inProcess: Boolean(options.invoke || options.runInProcess),
  });
  const listener: TWorkListener | null = options.listen ? listenForWork(options.listen, wake) : null;
  const running = loop();
  return {
    wake,
    stop: async () => {
      stopped = true;
      wake();
      await listener?.close();
      await running;
      await Promise.allSettled([...inFlight]);
    },
  };
}
