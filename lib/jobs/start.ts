import { inngest, INNGEST_APP_ID } from "@/inngest/client";
import { eventsWithoutFunctions, functions, functionVersions } from "@/inngest/index";
import { env } from "@/lib/env";
import { startJobDriver, type TJobDriver } from "@/lib/jobs/driver";
import { describeFunctions } from "@/lib/jobs/function-table";
import type { TRelayEvent } from "@/lib/jobs/relay";
import { inProcessRunner } from "@/lib/jobs/run-in-process";
import { inngestServerConfigured, servingSigningKey } from "@/lib/jobs/signing-key";
import { logError } from "@/lib/log";

const SEND_TIMEOUT_MS = 30_000;

// inngest.send() has no timeout of its own and hangs on a listener that never answers.
async function sendWithTimeout(events: TRelayEvent[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`inngest.send timed out after ${SEND_TIMEOUT_MS} ms`)),
      SEND_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([inngest.send(events), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const globalForJobs = globalThis as unknown as { jobDriver?: TJobDriver | null };

/**
 * Starts the background work of this server process once (Next.js `register()`): the outbox relay
 * when an Inngest server is configured, the in-process driver otherwise; nothing with JOB_DRIVER=off.
 */
export function startBackgroundJobs(): TJobDriver | null {
  if (globalForJobs.jobDriver !== undefined) return globalForJobs.jobDriver;
  if (env.JOB_DRIVER === "off") return (globalForJobs.jobDriver = null);
  const signingKey = servingSigningKey();
  if (!signingKey) {
    logError("background jobs not started: set NEXTAUTH_SECRET or INNGEST_SIGNING_KEY");
    return (globalForJobs.jobDriver = null);
  }
  const relay = inngestServerConfigured();
  globalForJobs.jobDriver = startJobDriver({
    mode: relay ? "relay" : "embedded",
    functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
    eventsWithoutFunctions,
    serveUrl: `http://127.0.0.1:${env.PORT}/api/inngest`,
    // Without an Inngest server the functions run on the SDK's engine in this process, without the
    // serve protocol's signed request and response (lib/jobs/run-in-process.ts).
    runInProcess: relay ? undefined : inProcessRunner(inngest, functions),
    signingKey,
    send: relay ? sendWithTimeout : undefined,
    listen: env.JOB_DRIVER_LISTEN === "on" ? env.DATABASE_URL : undefined,
    concurrency: env.JOB_DRIVER_CONCURRENCY,
    sweepIntervalMs: env.JOB_SWEEP_INTERVAL_MS,
    sweepGraceMs: env.JOB_SWEEP_GRACE_MS,
    startDelayMs: 1000,
  });
  return globalForJobs.jobDriver;
}

/** The job driver of this process: off by configuration, not started (yet, or refused), running or stopped. */
export function jobDriverStatus(): "off" | "not started" | "running" | "stopped" {
  if (env.JOB_DRIVER === "off") return "off";
  const driver = globalForJobs.jobDriver;
  if (!driver) return "not started";
  return driver.running() ? "running" : "stopped";
}

/** Stops the job driver of this process (see TJobDriver.stop): the number of runs handed back. */
export async function stopBackgroundJobs(deadline: number): Promise<number> {
  const driver = globalForJobs.jobDriver;
  return driver ? driver.stop({ deadline }) : 0;
}
