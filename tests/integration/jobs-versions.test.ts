import { Inngest } from "inngest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobsPool, prisma } from "@/lib/db";
import { startJobDriver, type TJobDriver } from "@/lib/jobs/driver";
import { describeFunctions } from "@/lib/jobs/function-table";
import { inProcessRunner } from "@/lib/jobs/run-in-process";
import { enqueue } from "@/lib/outbox/enqueue";
import { waitFor } from "@/tests/support/webhook-receiver";

// Rolling upgrades, on one database: an "old" driver that serves `work` at version 1, and a "new" one
// that serves `work` at version 2 and a function `extra` (event `test/extra`) the old one does not
// have. Each run must be executed exactly once, by a driver that serves its function and version;
// no event may be dispatched without its runs.
const SIGNING_KEY = "signkey-test-0123456789abcdef0123456789abcdef";
const APP = "rolling";

type TExecution = { driver: "old" | "new"; fn: string; eventId: string };
const executions: TExecution[] = [];

function build(driver: "old" | "new") {
  const client = new Inngest({ id: APP, signingKey: SIGNING_KEY, isDev: false });
  const work = client.createFunction(
    { id: "work", triggers: [{ event: "test/work" }] },
    async ({ event, step }) => {
      // a step, so a run is claimed, called, stored and called again: two claims' worth of work
      await step.run("record", () => {
        executions.push({ driver, fn: "work", eventId: event.id ?? "" });
        return null;
      });
      return { driver };
    },
  );
  const extra = client.createFunction(
    { id: "extra", triggers: [{ event: "test/extra" }] },
    async ({ event }) => {
      executions.push({ driver, fn: "extra", eventId: event.id ?? "" });
      return { driver };
    },
  );
  const fns = driver === "old" ? [work] : [work, extra];
  return startJobDriver({
    mode: "embedded",
    functions: describeFunctions(APP, fns, driver === "old" ? {} : { work: 2 }),
    serveUrl: "http://127.0.0.1:9/unused",
    runInProcess: inProcessRunner(client, fns),
    signingKey: SIGNING_KEY,
    pollMs: 20,
    minPassIntervalMs: 0,
    concurrency: 4,
    leaseMs: 5000,
    sweepIntervalMs: 0,
  });
}

async function enqueueMany(name: string, n: number): Promise<string[]> {
  return prisma.$transaction(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await enqueue(tx, { name, data: { i } }));
    return ids;
  });
}

/** Runs left by a previous build, queued and due: `version` says which function version created them. */
async function queuedRuns(version: number, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const eventId = `left-v${version}-${i}`;
    await prisma.jobRun.create({
      data: {
        functionId: `${APP}-work`,
        fnVersion: version,
        eventId,
        event: { id: eventId, name: "test/work", data: { i }, ts: Date.now() },
      },
    });
    ids.push(eventId);
  }
  return ids;
}

describe("two drivers serving different function versions on one database", () => {
  let drivers: TJobDriver[] = [];
  afterAll(async () => {
    await Promise.all(drivers.map((d) => d.stop()));
  });

  let work: string[];
  let extra: string[];
  let unknown: string[];
  let leftV1: string[];
  let leftV2: string[];
  beforeAll(async () => {
    leftV1 = await queuedRuns(1, 20);
    leftV2 = await queuedRuns(2, 20);
    drivers = [build("old"), build("new")];
    // interleaved commits while both drivers run: each pass of either reads all three kinds
    work = [];
    extra = [];
    unknown = [];
    for (let round = 0; round < 10; round++) {
      work.push(...(await enqueueMany("test/work", 12)));
      extra.push(...(await enqueueMany("test/extra", 6)));
      unknown.push(...(await enqueueMany("test/unknown", 1)));
    }
    const all = [...work, ...extra, ...leftV1, ...leftV2];
    await waitFor(
      async () => {
        const done = await prisma.jobRun.count({ where: { eventId: { in: all }, status: "completed" } });
        return done === all.length ? done : null;
      },
      60_000,
      "every run completed",
    );
  }, 90_000);

  const executed = (fn: string, ids: string[]) =>
    executions.filter((e) => e.fn === fn && ids.includes(e.eventId));

  it("executes every run exactly once, by a driver that serves its function version", async () => {
    for (const ids of [work, leftV1, leftV2]) {
      const seen = executed("work", ids).map((e) => e.eventId);
      expect(seen.sort()).toEqual([...ids].sort());
    }
    const runs = await prisma.jobRun.findMany({
      where: { eventId: { in: [...work, ...leftV1, ...leftV2] } },
    });
    expect(runs).toHaveLength(work.length + leftV1.length + leftV2.length);
    for (const run of runs) {
      const by = executed("work", [run.eventId]).map((e) => e.driver);
      expect(by).toEqual([run.fnVersion === 1 ? "old" : "new"]);
      expect(run.output).toEqual({ driver: by[0] });
    }
    // the runs left by each version went to the driver that serves it
    expect(new Set(executed("work", leftV1).map((e) => e.driver))).toEqual(new Set(["old"]));
    expect(new Set(executed("work", leftV2).map((e) => e.driver))).toEqual(new Set(["new"]));
  });

  it("leaves the events of a function only the newer build has to it: none dropped", async () => {
    const seen = executed("extra", extra);
    expect(seen.map((e) => e.eventId).sort()).toEqual([...extra].sort());
    expect(new Set(seen.map((e) => e.driver))).toEqual(new Set(["new"]));
    expect(await prisma.jobRun.count({ where: { eventId: { in: extra }, functionId: `${APP}-extra` } })).toBe(
      extra.length,
    );
  });

  it("dispatches no event without its runs; an event no driver knows stays undispatched", async () => {
    const dispatched = await prisma.outboxEvent.findMany({
      where: { id: { in: [...work, ...extra, ...unknown] }, dispatchedAt: { not: null } },
      select: { id: true, dispatchedBy: true },
    });
    expect(dispatched.map((e) => e.id).sort()).toEqual([...work, ...extra].sort());
    expect(new Set(dispatched.map((e) => e.dispatchedBy))).toEqual(new Set([2]));
    expect(await prisma.jobRun.count({ where: { eventId: { in: unknown } } })).toBe(0);
  });

  it("keeps a driver of the previous protocol from marking an event it cannot know dispatched", async () => {
    // The previous release's dispatch: every undispatched row it read, marked without "dispatchedBy".
    const [known] = await enqueueMany("webhook/delivery.retry", 1);
    const [newer] = await enqueueMany("test/only-newer", 1);
    const res = await jobsPool().query<{ id: string }>(
      `UPDATE outbox_events SET "dispatchedAt" = now() WHERE id = ANY($1::text[]) RETURNING id`,
      [[known, newer]],
    );
    expect(res.rows.map((r) => r.id)).toEqual([known]);
    expect((await prisma.outboxEvent.findUniqueOrThrow({ where: { id: newer } })).dispatchedAt).toBeNull();
  });
});
