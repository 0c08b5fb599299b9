import { InngestTestEngine } from "@inngest/test";
import { beforeAll, describe, expect, it } from "vitest";

// Step outputs are mocked (no database, no HTTP): this checks how a batch is split into steps.
// The attempts themselves are covered against PostgreSQL by tests/integration/webhook-delivery.test.ts.
type TFunction = ConstructorParameters<typeof InngestTestEngine>[0]["function"];
let deliverWebhooks: TFunction;

beforeAll(async () => {
  ({ deliverWebhooks } = await import("@/inngest/functions/deliver-webhooks"));
});

const requested = (deliveryId?: string) => ({
  name: "webhook/delivery.requested",
  data: deliveryId === undefined ? {} : { deliveryId },
});
const engine = (events: Array<ReturnType<typeof requested>>) =>
  new InngestTestEngine({ function: deliverWebhooks, events: events as never });

const sent = (deliveryId: string, responseStatus: number) => ({
  deliveryId,
  skipped: false,
  attempt: 1,
  startedAt: 1_000,
  durationMs: 5,
  responseStatus,
  error: responseStatus < 300 ? null : `HTTP ${responseStatus}`,
  ok: responseStatus < 300,
  final: false,
});

describe("deliver-webhooks", () => {
  it("sends the batch in one step and records it in the next, once per delivery", async () => {
    const { result, ctx } = await engine([
      requested("a"),
      requested("b"),
      requested("a"),
      requested("c"),
    ]).execute({
      steps: [
        {
          id: "send-attempts",
          handler: () => [
            sent("a", 200),
            sent("b", 500),
            { deliveryId: "c", skipped: true, status: "delivered" },
          ],
        },
        {
          id: "record-attempts",
          handler: () => ({ delivered: 1, retrying: 1, failed: 0 }),
        },
      ],
    });
    expect(result).toEqual({ deliveries: 3, delivered: 1, retrying: 1, failed: 0, skipped: 1 });
    expect(ctx.step.run).toHaveBeenCalledTimes(2);
  });

  it("records nothing when no delivery was attempted, and ignores malformed events", async () => {
    const { result, ctx } = await engine([requested("a"), requested()]).execute({
      steps: [
        { id: "send-attempts", handler: () => [{ deliveryId: "a", skipped: true, status: "missing" }] },
      ],
    });
    expect(result).toEqual({ deliveries: 1, delivered: 0, retrying: 0, failed: 0, skipped: 1 });
    expect(ctx.step.run).toHaveBeenCalledTimes(1);
  });
});
