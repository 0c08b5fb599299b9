import { InngestTestEngine } from "@inngest/test";
import { beforeAll, describe, expect, it } from "vitest";

// Step outputs are mocked (no database, no HTTP): this checks the function's schedule logic.
// lib/env reads the environment at import, hence the dynamic import after setting it.
process.env.WEBHOOK_RETRY_DELAYS_MS = "50,50";

type TFunction = ConstructorParameters<typeof InngestTestEngine>[0]["function"];
let deliverWebhook: TFunction;
// A run moved onto the retry event at position 1 (migration 20261125130200): the whole schedule.
const event = { name: "webhook/delivery.retry", data: { deliveryId: "dlv_1", n: 1 } };

beforeAll(async () => {
  ({ deliverWebhook } = await import("@/inngest/functions/deliver-webhook"));
});

// A fresh engine per execution: the engine keeps mocked step state between runs.
const engine = (events: Array<typeof event | Record<string, unknown>> = [event]) =>
  new InngestTestEngine({ function: deliverWebhook, events: events as never });

const sent = (attempt: number, responseStatus: number) => ({
  skipped: false,
  attempt,
  startedAt: 1_000 * attempt,
  durationMs: 5,
  responseStatus,
  error: responseStatus < 300 ? null : `HTTP ${responseStatus}`,
  ok: responseStatus < 300,
  final: false,
});

const recorded = (status: string, attempts: number, nextAttemptAt: number | null) => ({
  status,
  attempts,
  nextAttemptAt,
});

describe("deliver-webhook", () => {
  it("retries after failures and stops at the first 2xx", async () => {
    const { result, ctx } = await engine().execute({
      steps: [
        { id: "send-attempt-1", handler: () => sent(1, 500) },
        { id: "record-attempt-1", handler: () => recorded("pending", 1, 1_055) },
        { id: "backoff-1", handler: () => null },
        { id: "send-attempt-2", handler: () => sent(2, 500) },
        { id: "record-attempt-2", handler: () => recorded("pending", 2, 2_055) },
        { id: "backoff-2", handler: () => null },
        { id: "send-attempt-3", handler: () => sent(3, 200) },
        { id: "record-attempt-3", handler: () => recorded("delivered", 3, null) },
      ],
    });
    expect(result).toEqual({ deliveryId: "dlv_1", status: "delivered", attempts: 3 });
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("backoff-1", new Date(1_055));
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("backoff-2", new Date(2_055));
    expect(ctx.step.run).not.toHaveBeenCalledWith("send-attempt-4", expect.anything());
  });

  it("ends failed after N + 1 attempts", async () => {
    const { result, ctx } = await engine().execute({
      steps: [
        { id: "send-attempt-1", handler: () => sent(1, 503) },
        { id: "record-attempt-1", handler: () => recorded("pending", 1, 1_055) },
        { id: "backoff-1", handler: () => null },
        { id: "send-attempt-2", handler: () => sent(2, 503) },
        { id: "record-attempt-2", handler: () => recorded("pending", 2, 2_055) },
        { id: "backoff-2", handler: () => null },
        { id: "send-attempt-3", handler: () => sent(3, 503) },
        { id: "record-attempt-3", handler: () => recorded("failed", 3, null) },
      ],
    });
    expect(result).toEqual({ deliveryId: "dlv_1", status: "failed", attempts: 3 });
    expect(ctx.step.sleepUntil).toHaveBeenCalledTimes(2);
  });

  it("continues a batched delivery's schedule: waits until its retry is due, then attempt 2 on", async () => {
    const retry = { name: "webhook/delivery.retry", data: { deliveryId: "dlv_1", n: 2, at: 1_055 } };
    const { result, ctx } = await engine([retry]).execute({
      steps: [
        { id: "backoff-1", handler: () => null },
        { id: "send-attempt-2", handler: () => sent(2, 500) },
        { id: "record-attempt-2", handler: () => recorded("pending", 2, 2_055) },
        { id: "backoff-2", handler: () => null },
        { id: "send-attempt-3", handler: () => sent(3, 503) },
        { id: "record-attempt-3", handler: () => recorded("failed", 3, null) },
      ],
    });
    expect(result).toEqual({ deliveryId: "dlv_1", status: "failed", attempts: 3 });
    expect(ctx.step.sleepUntil).toHaveBeenNthCalledWith(1, "backoff-1", new Date(1_055));
    expect(ctx.step.sleepUntil).toHaveBeenNthCalledWith(2, "backoff-2", new Date(2_055));
    expect(ctx.step.run).not.toHaveBeenCalledWith("send-attempt-1", expect.anything());
  });

  it("does nothing for a delivery that is no longer pending", async () => {
    const { result, ctx } = await engine().execute({
      steps: [{ id: "send-attempt-1", handler: () => ({ skipped: true, status: "delivered" }) }],
    });
    expect(result).toEqual({ deliveryId: "dlv_1", status: "delivered", attempts: 0 });
    expect(ctx.step.run).toHaveBeenCalledTimes(1);
  });

  it("rejects an event without a delivery id before any step", async () => {
    const { error, ctx } = await engine().execute({
      events: [{ name: "webhook/delivery.retry", data: { n: 2 } }],
    });
    expect(error).toBeDefined();
    expect(ctx.step.run).not.toHaveBeenCalled();
  });
});
