import { Inngest, NonRetriableError } from "inngest";
import { serve } from "inngest/next";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { startJobDriver, type TJobDriver } from "@/lib/jobs/driver";
import { describeFunctions } from "@/lib/jobs/function-table";
import { inProcessRunner } from "@/lib/jobs/run-in-process";
import { enqueue } from "@/lib/outbox/enqueue";
import { startRouteServer } from "@/tests/support/serve-server";
import { waitFor } from "@/tests/support/webhook-receiver";

// The driver's side of the protocol with functions written for the purpose: step retries,
// memoization across retries, final failure, non-retriable errors, durable sleep.
const SIGNING_KEY = "signkey-test-0123456789abcdef0123456789abcdef";
const client = new Inngest({ id: "driver-test", signingKey: SIGNING_KEY, isDev: false });
const calls: Record<string, number> = {};
const count = (name: string) => (calls[name] = (calls[name] ?? 0) + 1);

const flaky = client.createFunction(
  { id: "flaky", retries: 3, triggers: [{ event: "test/flaky" }] },
  async ({ step }) => {
    const first = await step.run("side-effect", () => count("side-effect"));
    const second = await step.run("flaky", () => {
      if (count("flaky") < 3) throw new Error("not yet");
      return "third time lucky";
    });
    return { first, second };
  },
);

const broken = client.createFunction(
  { id: "broken", retries: 1, triggers: [{ event: "test/broken" }] },
  async () => {
    count("broken");
    throw new Error("always broken");
  },
);

const fatal = client.createFunction(
  { id: "fatal", retries: 5, triggers: [{ event: "test/fatal" }] },
  async () => {
    count("fatal");
    throw new NonRetriableError("give up now");
  },
);

const sleeper = client.createFunction(
  { id: "sleeper", triggers: [{ event: "test/sleeper" }] },
  async ({ step, event }) => {
    const before = await step.run("before", () => Date.now());
    await step.sleep("nap", "1s");
    const after = await step.run("after", () => Date.now());
    return { slept: after - before, data: event.data as unknown };
  },
);

const parallel = client.createFunction(
  { id: "parallel", triggers: [{ event: "test/parallel" }] },
  async ({ step }) => {
    const [a, b] = await Promise.all([
      step.run("left", () => count("left")),
      step.run("right", () => count("right")),
    ]);
    const joined = await step.run("join", () => `${a}+${b}`);
    return { joined };
  },
);

const batched = client.createFunction(
  { id: "batched", triggers: [{ event: "test/batched" }], batchEvents: { maxSize: 3, timeout: "1s" } },
  async ({ events, step }) => {
    const ns = await step.run("sum", () => events.map((e) => (e.data as { n: number }).n));
    return { ns };
  },
);

const fns = [flaky, broken, fatal, sleeper, parallel, batched];

// Both ways the driver runs a function: the serve protocol (signed requests to the serve handler, as
// with `invoke` or over HTTP) and the SDK's execution engine in process (what `npm start` uses).
function withDriver(mode: "serve" | "in-process") {
  let driver: TJobDriver;
  let server: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    for (const key of Object.keys(calls)) delete calls[key];
    const handler = serve({ client, functions: fns });
    server = await startRouteServer({ POST: handler.POST as never });
    driver = startJobDriver({
      mode: "embedded",
      functions: describeFunctions("driver-test", fns),
      serveUrl: server.url,
      runInProcess: mode === "in-process" ? inProcessRunner(client, fns) : undefined,
      signingKey: SIGNING_KEY,
      eventsWithoutFunctions: ["test/silent"],
      pollMs: 50,
      leaseMs: 5000,
      retryBaseMs: 50,
    });
  });

  afterAll(async () => {
    await driver.stop();
    await server.close();
  });
}

async function trigger(name: string, data: Record<string, unknown> = {}) {
  const eventId = await prisma.$transaction((tx) => enqueue(tx, { name, data }));
  return waitFor(
    async () => {
      const run = await prisma.jobRun.findFirst({ where: { eventId } });
      return run && (run.status === "completed" || run.status === "failed") ? run : null;
    },
    30_000,
    `the run of ${name}`,
  );
}

describe.each(["serve", "in-process"] as const)("in-process job driver (%s)", (mode) => {
  withDriver(mode);

  it("retries a failing step, keeping the steps before it memoized", async () => {
    const run = await trigger("test/flaky");
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ first: 1, second: "third time lucky" });
    expect(calls["side-effect"]).toBe(1);
    expect(calls.flaky).toBe(3);
    expect(run.functionId).toBe("driver-test-flaky");
  });

  it("marks a run failed once its attempts are used up", async () => {
    const run = await trigger("test/broken");
    expect(run.status).toBe("failed");
    expect(calls.broken).toBe(2);
    expect(run.lastError).toContain("always broken");
  });

  it("does not retry a non-retriable error", async () => {
    const run = await trigger("test/fatal");
    expect(run.status).toBe("failed");
    expect(calls.fatal).toBe(1);
    expect(run.lastError).toContain("give up now");
  });

  it("sleeps durably between steps", async () => {
    const run = await trigger("test/sleeper", { n: 7 });
    expect(run.status).toBe("completed");
    const output = run.output as { slept: number; data: unknown };
    expect(output.data).toEqual({ n: 7 });
    expect(output.slept).toBeGreaterThanOrEqual(1000);
    expect(Object.keys(run.steps as object)).toHaveLength(3);
  });

  it("runs parallel steps one planned step at a time, each once", async () => {
    const run = await trigger("test/parallel");
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ joined: "1+1" });
    expect(calls.left).toBe(1);
    expect(calls.right).toBe(1);
    expect(Object.keys(run.steps as object)).toHaveLength(3);
  });

  it("hands a batched function every pending event up to maxSize in one run, in commit order", async () => {
    const eventIds = await prisma.$transaction(async (tx) => {
      const ids: string[] = [];
      for (let n = 1; n <= 7; n++) ids.push(await enqueue(tx, { name: "test/batched", data: { n } }));
      return ids;
    });
    const runs = await waitFor(
      async () => {
        const rows = await prisma.jobRun.findMany({
          where: { functionId: "driver-test-batched", eventId: { in: eventIds }, status: "completed" },
          orderBy: { createdAt: "asc" },
        });
        return rows.length === 3 ? rows : null;
      },
      30_000,
      "the batched runs",
    );
    expect(
      runs.map((r) => r.output).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([{ ns: [1, 2, 3] }, { ns: [4, 5, 6] }, { ns: [7] }]);
    // Each run is keyed by its first event; every event was dispatched once.
    expect(runs.map((r) => r.eventId).sort()).toEqual([eventIds[0], eventIds[3], eventIds[6]].sort());
    expect(await prisma.outboxEvent.count({ where: { id: { in: eventIds }, dispatchedAt: null } })).toBe(0);
  });

  it("dispatches an event it knows triggers nothing without a run, and leaves an unknown one", async () => {
    const [silent, unknown] = await prisma.$transaction(async (tx) => [
      await enqueue(tx, { name: "test/silent", data: {} }),
      await enqueue(tx, { name: "test/nobody", data: {} }),
    ]);
    await waitFor(
      async () => (await prisma.outboxEvent.findUniqueOrThrow({ where: { id: silent } })).dispatchedAt,
      10_000,
      "dispatch",
    );
    // A pass that dispatched the known event read the unknown one too, committed before it: left for a
    // build that knows it (rolling upgrades), not marked dispatched without its runs.
    await trigger("test/parallel");
    expect(await prisma.jobRun.count({ where: { eventId: { in: [silent, unknown] } } })).toBe(0);
    expect((await prisma.outboxEvent.findUniqueOrThrow({ where: { id: unknown } })).dispatchedAt).toBeNull();
  });
});
