import { analyzeStaleTables } from "@/lib/jobs/analyze-tables";
import { ensureMonthPartitions } from "@/lib/jobs/ensure-partitions";
import {
  executeRun,
  type TExecutorConfig,
  type TRunControl,
  type TServeInvoker,
} from "@/lib/jobs/execute-run";
import { JOB_PROTOCOL, type TJobFunction } from "@/lib/jobs/function-table";
import { listenForWork, type TWorkListener } from "@/lib/jobs/listen";
import { relayOutbox, type TRelayEvent } from "@/lib/jobs/relay";
import { dispatchAndClaim, outboxPending, pruneCompletedRuns } from "@/lib/jobs/run-store";
import { sweepStuckDeliveries } from "@/lib/jobs/sweep-deliveries";
import { registerLocalDriver } from "@/lib/jobs/wake";
import { logError, logInfo } from "@/lib/log";
import { jobPassFailures, jobRunsInFlight, jobStartDelay } from "@/lib/ops/metrics";

// The background loop of the Node server. Embedded mode (no Inngest server): outbox rows become
// job runs, which are executed by calling the app's own serve endpoint with bounded concurrency.
// Relay mode: outbox rows are sent to the Inngest server, which calls the serve endpoint itself.
// Either way request handlers only ever write rows; nothing they do waits on this loop.

export type TJobDriverOptions = {
  mode: "embedded" | "relay";
  functions: readonly TJobFunction[];
  /** Events this build writes that trigger none of its functions: dispatched without a run (see dispatchAndClaim). */
  eventsWithoutFunctions?: readonly string[];
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
   * A PostgreSQL connection string to LISTEN on for new work (outbox and run inserts notify at commit, or
   * their writer after it: lib/jobs/wake.ts), so work starts within milliseconds of its commit instead of
   * at the next poll. The writes of this process also wake it in process, listening or not.
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
  /**
   * The least time from the start of a pass that found work to the start of the next (a wake in
   * between is kept, not lost). At rest a commit is served at once; under load the events committed
   * meanwhile go out together: one dispatch and one claim for all of them, and one run for up to
   * `batchEvents.maxSize` events of a batched function, instead of a pass and a run per commit.
   * Default 50 ms: under screening load a webhook's first attempt waits up to that long for its
   * batch, and a delivery costs about a quarter less CPU than at 20 ms (fewer statements each).
   */
  minPassIntervalMs?: number;
  /**
   * How often the driver sweeps for webhook deliveries left pending by a run that ended failed
   * (`sweep-deliveries.ts`; one driver at a time across processes). Default 60 s; 0: never.
   */
  sweepIntervalMs?: number;
  /** How long past due a pending delivery must be before a sweep requests it again. Default 5 min. */
  sweepGraceMs?: number;
  /** How often to refresh stale planner statistics where no autovacuum runs (`analyze-tables.ts`). Default 60 s. */
  analyzeIntervalMs?: number;
};

export type TJobDriver = {
  /** Looks for work now instead of at the next poll (e.g. right after a commit in this process). */
  wake: () => void;
  /**
   * Stops claiming and waits for the runs in progress; with a deadline, the runs still going then
   * are handed back (queued, due now) so that another process takes them at once instead of after
   * their lease expires. Resolves with the number handed back.
   */
  stop: (options?: { deadline?: number }) => Promise<number>;
  /** False once stop() was called. */
  running: () => boolean;
};

const PRUNE_EVERY_MS = 60 * 60_000;
/** How often a pass also looks for runs whose lease expired (a worker died): see dispatchAndClaim. */
const RECOVER_EVERY_MS = 1000;
const DISPATCH_LIMIT = 500;
const KEEP_COMPLETED_MS = 7 * 24 * 60 * 60_000;
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
const DEFAULT_SWEEP_GRACE_MS = 5 * 60_000;
const ANALYZE_EVERY_MS = 60_000;
/** The month partitions ahead are checked at start and then hourly (three months are made in advance). */
const PARTITIONS_EVERY_MS = 60 * 60_000;

export function startJobDriver(options: TJobDriverOptions): TJobDriver {
  const pollMs = options.pollMs ?? 250;
  const concurrency = options.concurrency ?? 16;
  const leaseMs = options.leaseMs ?? 30_000;
  const minPassIntervalMs = options.minPassIntervalMs ?? 50;
  const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  const sweepGraceMs = options.sweepGraceMs ?? DEFAULT_SWEEP_GRACE_MS;
  const analyzeIntervalMs = options.analyzeIntervalMs ?? ANALYZE_EVERY_MS;
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
  const controls = new Map<Promise<void>, TRunControl>();
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let failures = 0;
  let lastErrorLog = 0;
  let lastPrune = 0;
  let lastSweep = 0;
  // not at start: right after a restart the statistics are whatever the last run left
  let lastAnalyze = Date.now();
  let lastRecovery = 0;
  let lastPartitions = 0;
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

  /** One pass: `more` when there may be more to do right away, `found` when it found any work. */
  async function tick(): Promise<{ more: boolean; found: boolean }> {
    let more = false;
    let found = false;
    if (send) {
      if (await outboxPending()) {
        const moved = await relayOutbox(send);
        more = moved > 0;
        found = moved > 0;
      }
    } else {
      // One statement: dispatch what was committed, claim what is due (the new runs first).
      const free = concurrency - inFlight.size;
      // expired leases (crash recovery) at most every RECOVER_EVERY_MS (or a quarter of the lease)
      const recoverExpired = Date.now() - lastRecovery >= Math.min(RECOVER_EVERY_MS, leaseMs / 4);
      if (recoverExpired) lastRecovery = Date.now();
      const { dispatched, runs } = await dispatchAndClaim(options.functions, {
        free,
        leaseMs,
        limit: DISPATCH_LIMIT,
        recoverExpired,
        withoutFunctions: options.eventsWithoutFunctions,
      });
      for (const run of runs) {
        // a run's first execution: how long its event waited since its commit (the driver's lag)
        const committedAt = Number(run.event.ts);
        if (run.attempt === 0 && Object.keys(run.steps).length === 0 && committedAt > 0)
          jobStartDelay.observe(Math.max(0, Date.now() - committedAt) / 1000);
        const control: TRunControl = {};
        const task = executeRun(run, config, control).finally(() => {
          inFlight.delete(task);
          controls.delete(task);
          jobRunsInFlight.set(inFlight.size);
          // Refill in batches: a claim per finished run would cost a statement per run under load.
          if (inFlight.size <= concurrency / 2) wake();
        });
        inFlight.add(task);
        controls.set(task, control);
      }
      jobRunsInFlight.set(inFlight.size);
      // Only a full dispatch or claim means a backlog; what commits meanwhile waits for the next pass.
      more = dispatched >= DISPATCH_LIMIT || (free > 0 && runs.length === free);
      found = dispatched > 0 || runs.length > 0;
    }
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await pruneCompletedRuns(new Date(Date.now() - KEEP_COMPLETED_MS));
    }
    if (sweepIntervalMs > 0 && Date.now() - lastSweep >= sweepIntervalMs) {
      lastSweep = Date.now();
      const swept = await sweepStuckDeliveries({ graceMs: sweepGraceMs });
      if (swept.requested + swept.failed > 0) {
        logInfo("webhook deliveries swept", { ...swept, graceMs: sweepGraceMs });
        // the requested retries are outbox rows: the next pass dispatches (or relays) them
        more = true;
      }
    }
    if (Date.now() - lastPartitions >= PARTITIONS_EVERY_MS) {
      lastPartitions = Date.now();
      const made = await ensureMonthPartitions();
      if (made.length > 0) logInfo("month partitions made", { partitions: made });
    }
    if (Date.now() - lastAnalyze >= analyzeIntervalMs) {
      lastAnalyze = Date.now();
      const analyzed = await analyzeStaleTables();
      if (analyzed.length > 0) logInfo("planner statistics refreshed (no autovacuum)", { tables: analyzed });
    }
    return { more, found };
  }

  async function loop(): Promise<void> {
    if (options.startDelayMs) await new Promise((resolve) => setTimeout(resolve, options.startDelayMs));
    while (!stopped) {
      const started = Date.now();
      let pass = { more: false, found: false };
      woken = false;
      try {
        pass = await tick();
        failures = 0;
      } catch (err) {
        failures++;
        jobPassFailures.inc();
        if (Date.now() - lastErrorLog > 60_000) {
          lastErrorLog = Date.now();
          logError("job driver pass failed; retrying", err);
        }
      }
      if (stopped) break;
      if (pass.more) continue;
      const rest = started + minPassIntervalMs - Date.now();
      if (pass.found && rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      // Back off while the database is away, but not so far that the work waits long once it is back.
      if (!stopped) await pause(pollMs * Math.min(2 ** failures, 8));
    }
  }

  logInfo("job driver started", {
    mode: options.mode,
    functions: options.functions.map((f) => `${f.id}@${f.version}`),
    protocol: JOB_PROTOCOL,
    concurrency,
    listen: Boolean(options.listen),
    batched: options.functions.filter((f) => f.batchSize).map((f) => `${f.id} (${f.batchSize})`),
    inProcess: Boolean(options.invoke || options.runInProcess),
  });
  const listener: TWorkListener | null = options.listen ? listenForWork(options.listen, wake) : null;
  // the screenings of this process wake it in process after their commit (lib/jobs/wake.ts)
  const unregister = registerLocalDriver(wake);
  const running = loop();
  return {
    wake,
    running: () => !stopped,
    stop: async ({ deadline }: { deadline?: number } = {}) => {
      stopped = true;
      unregister();
      wake();
      await listener?.close();
      await running;
      const all = Promise.allSettled([...inFlight]);
      if (deadline === undefined) {
        await all;
        return 0;
      }
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        all.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now()));
        }),
      ]);
      clearTimeout(timer);
      if (!late) return 0;
      const handed = await Promise.all([...controls.values()].map((c) => c.handBack?.() ?? false));
      return handed.filter(Boolean).length;
    },
  };
}
