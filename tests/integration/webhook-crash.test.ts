import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TReceiver } from "@/tests/support/webhook-receiver";

vi.hoisted(() => {
  process.env.WEBHOOK_RETRY_DELAYS_MS = "50,50,50";
});

const { prisma } = await import("@/lib/db");
const { createSubscription } = await import("@/lib/webhooks/create-subscription");
const { emitWebhookEvent } = await import("@/lib/webhooks/emit");
const { createTestClient } = await import("@/tests/factories");
const { startReceiver, waitFor } = await import("@/tests/support/webhook-receiver");

// The server process (driver + serve endpoint) is SIGKILLed while deliveries are in flight, once in
// the batched first attempts and once in the retry runs, and started again: every delivery must
// complete; repeats are allowed only as the same delivery id.
const SECRET = "whsec_crash-test";
const DELIVERIES = 40;
const LEASE_MS = 1500;
let receiver: TReceiver;
const children: ChildProcess[] = [];

function startWorker(): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/support/job-worker.ts", String(LEASE_MS)],
    {
      env: { ...process.env, NODE_ENV: "test" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("READY")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

beforeAll(async () => {
  // Every delivery fails twice (its batched attempt, then a retry run's, which sleeps between
  // attempts) and answers slowly.
  receiver = await startReceiver(SECRET, async (_id, nth) => {
    await new Promise((r) => setTimeout(r, 40));
    return nth < 2 ? 500 : 200;
  });
});

afterAll(async () => {
  await Promise.all(children.map(kill));
  await receiver.close();
});

describe("crash recovery of the embedded driver", () => {
  it("completes every delivery after a SIGKILL mid-flight, duplicates only with the same delivery id", async () => {
    const { clientId } = await createTestClient();
    await createSubscription({
      clientId,
      clientType: "consumer",
      url: receiver.url,
      events: ["alert.created"],
      secret: SECRET,
    });
    for (let i = 0; i < DELIVERIES; i++) {
      await prisma.$transaction((tx) =>
        emitWebhookEvent(tx, {
          clientId,
          event: "alert.created",
          payload: {
            transactionId: `tx-${i}`,
            ruleId: "R1",
            ruleName: "Rule",
            level: "high",
            reason: "r",
            recommendedAction: "REVIEW",
            alertedAt: i,
          },
        }),
      );
    }
    const ids = (await prisma.webhookDelivery.findMany({ where: { clientId }, select: { id: true } })).map(
      (d) => d.id,
    );
    expect(ids).toHaveLength(DELIVERIES);

    const first = await startWorker();
    await waitFor(() => receiver.received.length >= DELIVERIES / 2, 60_000, "deliveries to be under way");
    await kill(first);

    const pendingAtCrash = await prisma.webhookDelivery.count({ where: { clientId, status: "pending" } });
    expect(pendingAtCrash).toBeGreaterThan(0);
    // Runs the dead process held keep their lease until it expires; then the new process takes them.
    const heldAtCrash = await prisma.jobRun.count({ where: { status: "running" } });

    const second = await startWorker();
    await waitFor(
      () => receiver.received.length >= 2 * DELIVERIES + DELIVERIES / 4,
      60_000,
      "retries to be under way",
    );
    await kill(second);
    const retryRunsAtCrash = await prisma.jobRun.count({
      where: { functionId: "risk-screening-deliver-webhook", status: { not: "completed" } },
    });

    await startWorker();
    await waitFor(
      async () =>
        (await prisma.webhookDelivery.count({ where: { clientId, status: "delivered" } })) === DELIVERIES,
      90_000,
      "every delivery to be delivered",
    );

    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const accepted = new Set(receiver.received.filter((r) => r.answered === 200).map((r) => r.deliveryId));
    expect([...accepted].sort()).toEqual([...ids].sort());
    expect(new Set(receiver.received.map((r) => r.deliveryId)).size).toBe(DELIVERIES);
    expect(receiver.received.every((r) => ids.includes(r.deliveryId))).toBe(true);
    // The run finishes one call after the delivery is recorded.
    await waitFor(
      async () => (await prisma.jobRun.count({ where: { status: { not: "completed" } } })) === 0,
      30_000,
      "runs to complete",
    );
    // Exactly one retry run per delivery whose batched attempt was recorded as failed (a first attempt
    // cut short by the kill is sent again by its batch, and the receiver then accepts it).
    const recordedFailures = await prisma.webhookAttempt.count({
      where: { deliveryId: { in: ids }, attempt: 1, responseStatus: 500 },
    });
    expect(
      await prisma.jobRun.count({
        where: { functionId: "risk-screening-deliver-webhook", status: "completed" },
      }),
    ).toBe(recordedFailures);

    const duplicates = receiver.received.length - 3 * DELIVERIES;
    console.info(
      `crash test: ${pendingAtCrash} deliveries pending and ${heldAtCrash} runs leased at the first SIGKILL, ` +
        `${retryRunsAtCrash} retry runs unfinished at the second; ${receiver.received.length} requests for ` +
        `${DELIVERIES} deliveries (${duplicates} repeats beyond the planned 500+500+200)`,
    );
  });
});
