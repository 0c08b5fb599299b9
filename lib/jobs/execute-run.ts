import type { TJobFunction } from "@/lib/jobs/function-table";
import {
  releaseRun,
  renewLease,
  updateRun,
  type TClaimedRun,
  type TRunUpdate,
  type TStepState,
} from "@/lib/jobs/run-store";
import type { TInProcessRunner, TServePayload } from "@/lib/jobs/run-in-process";
import { canonicalJson } from "@/lib/json/canonical-json";
import { inngestSignature } from "@/lib/jobs/serve-signature";
import { logError } from "@/lib/log";

// Plays the Inngest server's part for one claimed run: calls the app's serve endpoint with the
// event and the memoized step results, stores what each call reports, and decides what comes next
// (call again, sleep, retry later, finish). The protocol is the SDK's (RECIPES: serve protocol).

/** Calls the serve handler in this process with the request that would otherwise go over HTTP. */
export type TServeInvoker = (request: Request) => Promise<Response>;

export type TExecutorConfig = {
  serveUrl: string;
  /**
   * The serve endpoint's handler in this process: the same signed request, handed over without a
   * socket, so a step does not queue behind the server's HTTP requests nor pay for their parsing.
   * Unset: a POST to `serveUrl`.
   */
  invoke?: TServeInvoker;
  /**
   * The functions' execution engine in this process, without the serve protocol's request, signatures
   * and response (lib/jobs/run-in-process.ts). Takes precedence over `invoke` and `serveUrl`.
   */
  runInProcess?: TInProcessRunner;
  signingKey: string;
  functions: ReadonlyMap<string, TJobFunction>;
  leaseMs: number;
  requestTimeoutMs: number;
  /** First retry delay of a failed step or function; doubles per attempt. */
  retryBaseMs: number;
  /** Delay before trying again when the serve endpoint cannot be reached (server still starting). */
  unreachableDelayMs: number;
};

type TOp = { id: string; op: string; name?: string; data?: unknown; error?: unknown };

type TServeAnswer =
  | { status: number; headers: Headers; text: string }
  | { unreachable: true; error: string }
  | { timeout: true };

// A run that keeps asking for more without ever waiting is a bug; stop it from monopolising a worker.
const MAX_CALLS_PER_CLAIM = 500;
const MAX_RETRY_DELAY_MS = 10 * 60_000;
let lastUnreachableLog = 0;

async function callServe(
  config: TExecutorConfig,
  fnId: string,
  stepId: string,
  payload: TServePayload,
): Promise<TServeAnswer> {
  if (config.runInProcess)
    return runWithTimeout(config.runInProcess(fnId, stepId, payload), config.requestTimeoutMs);
  const body = canonicalJson(payload);
  const url = `${config.serveUrl}?fnId=${encodeURIComponent(fnId)}&stepId=${encodeURIComponent(stepId)}`;
  const init = {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Inngest-Signature": inngestSignature(body, config.signingKey),
    },
    body,
  };
  if (config.invoke) return invokeInProcess(config.invoke, new Request(url, init), config.requestTimeoutMs);
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(config.requestTimeoutMs) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (e.name === "TimeoutError" || e.name === "AbortError") return { timeout: true };
    return { unreachable: true, error: e.cause?.code ?? e.message };
  }
}

async function invokeInProcess(
  invoke: TServeInvoker,
  request: Request,
  timeoutMs: number,
): Promise<TServeAnswer> {
  return runWithTimeout(
    invoke(request).then(async (res) => ({
      status: res.status,
      headers: res.headers,
      text: await res.text(),
    })),
    timeoutMs,
  );
}

async function runWithTimeout(
  work: Promise<{ status: number; headers: Headers; text: string }>,
  timeoutMs: number,
): Promise<TServeAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const res = await Promise.race([work, timeout]);
    return res === "timeout" ? { timeout: true } : res;
  } catch (err) {
    // What the endpoint would have answered over HTTP: a server error, retried on the schedule.
    return { status: 500, headers: new Headers(), text: JSON.stringify({ message: (err as Error).message }) };
  } finally {
    clearTimeout(timer);
  }
}

function retryDelay(config: TExecutorConfig, attempt: number, retryAfter: string | null): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  const base = Math.min(config.retryBaseMs * 2 ** attempt, MAX_RETRY_DELAY_MS);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

const DURATION_UNITS: Record<string, number> = {
  w: 604_800_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};

/** The wake-up time of a Sleep op: an ISO date (sleepUntil) or a duration like "1h30m" (sleep). */
export function sleepUntil(name: string | undefined, now = Date.now()): number {
  if (!name) return now;
  if (/^\d{4}-\d{2}-\d{2}T/.test(name)) {
    const at = Date.parse(name);
    if (Number.isFinite(at)) return at;
  }
  let total = 0;
  for (const [, amount, unit] of name.matchAll(/(\d+(?:\.\d+)?)(ms|w|d|h|m|s)/g)) {
    total += Number(amount) * (DURATION_UNITS[unit ?? "s"] ?? 0);
  }
  return now + total;
}

function errorText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value && typeof value === "object") {
    const e = value as { name?: unknown; message?: unknown; error?: unknown };
    if (typeof e.message === "string")
      return typeof e.name === "string" ? `${e.name}: ${e.message}` : e.message;
    if (typeof e.error === "string") return e.error;
  }
  return JSON.stringify(value) ?? "unknown error";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Filled in by executeRun for its caller: how to give the run back before it is finished. */
export type TRunControl = {
  /**
   * Releases the lease (the run is queued, due now) and drops whatever the run does after that:
   * its later writes are fenced out. True when the run was handed back.
   */
  handBack?: () => Promise<boolean>;
};

/** Executes a claimed run until it finishes, waits (sleep, retry) or loses its lease. */
export async function executeRun(
  run: TClaimedRun,
  config: TExecutorConfig,
  control: TRunControl = {},
): Promise<void> {
  let lease: Date | null = run.leaseUntil;
  let steps: Record<string, TStepState> = { ...run.steps };
  let attempt = run.attempt;
  const fn = config.functions.get(run.functionId);

  // Serialises lease writes: the heartbeat and the state updates both use the lease as fencing token.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };
  const save = (update: TRunUpdate) =>
    serial(async () => {
      if (!lease) return null;
      lease = await updateRun(run.id, lease, update, config.leaseMs);
      return lease;
    });
  const heartbeat = setInterval(
    () => {
      void serial(async () => {
        if (lease) lease = await renewLease(run.id, lease, config.leaseMs);
      }).catch((err: unknown) => logError("job lease renewal failed", err));
    },
    Math.max(250, Math.floor(config.leaseMs / 3)),
  );

  control.handBack = () =>
    serial(async () => {
      if (!lease) return false;
      const released = await releaseRun(run.id, lease);
      lease = null;
      return released;
    });

  const fail = (error: string) => save({ kind: "failed", steps, attempt, error });
  const retryLater = (error: string, retryAfter: string | null = null) => {
    const next = attempt + 1;
    if (fn && next >= fn.maxAttempts) return fail(error);
    const runAt = new Date(Date.now() + retryDelay(config, attempt, retryAfter));
    return save({ kind: "wait", steps, attempt: next, runAt, lastError: error });
  };

  try {
    if (!fn) {
      await fail(`No function ${run.functionId} is served by this app`);
      return;
    }
    const event = run.event;
    const planned: string[] = [];
    for (let calls = 0; calls < MAX_CALLS_PER_CLAIM; calls++) {
      if (!lease) return;
      const stepId = planned.shift() ?? "step";
      const answer = await callServe(config, fn.id, stepId, {
        event,
        events: run.events ?? [event],
        steps,
        ctx: {
          run_id: run.id,
          attempt,
          max_attempts: fn.maxAttempts,
          disable_immediate_execution: false,
          use_api: false,
          stack: { stack: Object.keys(steps), current: Math.max(0, Object.keys(steps).length - 1) },
        },
        version: 2,
      });

      if ("unreachable" in answer) {
        // Not the function's fault (server starting or restarting): try again soon, attempt unchanged.
        if (Date.now() - lastUnreachableLog > 60_000) {
          lastUnreachableLog = Date.now();
          logError(
            `job driver cannot reach the serve endpoint ${config.serveUrl} (${answer.error}); is PORT right?`,
          );
        }
        await save({
          kind: "wait",
          steps,
          attempt,
          runAt: new Date(Date.now() + config.unreachableDelayMs),
          lastError: answer.error,
        });
        return;
      }
      if ("timeout" in answer) {
        await retryLater(`Serve request timed out after ${config.requestTimeoutMs} ms`);
        return;
      }

      const { status, headers, text } = answer;
      if (status === 200) {
        await save({ kind: "completed", steps, output: parseJson(text) });
        return;
      }
      if (status === 206) {
        const ops = parseJson(text);
        if (!Array.isArray(ops)) {
          await retryLater(`Malformed step response: ${text.slice(0, 200)}`);
          return;
        }
        let wakeAt = 0;
        let progressed = false;
        for (const op of ops as TOp[]) {
          switch (op.op) {
            case "StepRun":
            case "Step":
              steps = { ...steps, [op.id]: { type: "data", data: op.data ?? null } };
              progressed = true;
              break;
            case "StepFailed":
              steps = { ...steps, [op.id]: { type: "error", error: op.error ?? { message: "Step failed" } } };
              progressed = true;
              break;
            case "StepError":
              await retryLater(errorText(op.error), headers.get("retry-after"));
              return;
            case "Sleep":
              steps = { ...steps, [op.id]: { type: "data", data: null } };
              wakeAt = Math.max(wakeAt, sleepUntil(op.name));
              progressed = true;
              break;
            case "StepPlanned":
              planned.push(op.id);
              break;
            case "RunComplete":
              await save({ kind: "completed", steps, output: op.data ?? null });
              return;
            default:
              await fail(`Step operation ${op.op} is not supported without an Inngest server`);
              return;
          }
        }
        if (progressed) attempt = 0;
        if (wakeAt > Date.now()) {
          await save({ kind: "wait", steps, attempt, runAt: new Date(wakeAt) });
          return;
        }
        if (!(await save({ kind: "progress", steps, attempt }))) return;
        continue;
      }

      const error = `${status}: ${errorText(parseJson(text)).slice(0, 1000)}`;
      if (status === 401 || status === 403) {
        // A signing-key mismatch is a deployment problem, not the run's: keep the work, shout.
        logError(
          "job serve endpoint refused the driver's signature; check INNGEST_SIGNING_KEY / NEXTAUTH_SECRET",
        );
        await save({ kind: "wait", steps, attempt, runAt: new Date(Date.now() + 30_000), lastError: error });
        return;
      }
      if (headers.get("x-inngest-no-retry") === "true" || (status >= 400 && status < 500)) {
        await fail(error);
        return;
      }
      await retryLater(error, headers.get("retry-after"));
      return;
    }
    await retryLater(`Run made more than ${MAX_CALLS_PER_CLAIM} calls without waiting`);
  } catch (err) {
    logError(`job run ${run.id} (${run.functionId}) crashed in the driver`, err);
    // The lease will expire and another pass will pick the run up again.
  } finally {
    clearInterval(heartbeat);
    await chain;
  }
}
