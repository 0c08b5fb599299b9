import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postUser } from "@/app/v1/user/route";
import { PUT as putBlock } from "@/app/v1/users/[userId]/block/route";
import { PUT as putUnblock } from "@/app/v1/users/[userId]/unblock/route";
import { POST as subscribe } from "@/app/v1/webhooks/route";
import { prisma } from "@/lib/db";
import { sendDeliveryAttempt } from "@/lib/webhooks/send-delivery-attempt";
import { call, createTestClient } from "@/tests/factories";
import { startReceiver, type TReceiver } from "@/tests/support/webhook-receiver";

// Block/unblock notifications as a subscriber sees them: signed, verified, one per actual change.

const SECRET = "whsec_users-status-secret";
let receiver: TReceiver;
let apiKey: string;
let clientId: string;

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  ({ apiKey, clientId } = await createTestClient({ type: "consumer" }));
  const res = await call(subscribe as never, {
    apiKey,
    body: { url: receiver.url, events: ["user.status.block", "user.status.unblock"], secret: SECRET },
  });
  expect(res.status).toBe(200);
  for (const id of ["wh-twice", "wh-never-blocked"])
    expect((await call(postUser, { apiKey, body: { id, timestamp: Date.now() - 1000 } })).status).toBe(200);
});

afterAll(async () => {
  await receiver.close();
});

/** Sends every pending delivery of the client once, as the delivery function does. */
async function deliverPending(): Promise<void> {
  const pending = await prisma.webhookDelivery.findMany({
    where: { clientId, status: "pending" },
    orderBy: { createdAt: "asc" },
  });
  for (const d of pending) {
    const outcome = await sendDeliveryAttempt({ deliveryId: d.id });
    expect(outcome.skipped).toBe(false);
    await prisma.webhookDelivery.update({
      where: { id: d.id },
      data: { status: "delivered", attempts: { increment: 1 } },
    });
  }
}

describe("user.status webhooks", () => {
  it("block twice: the receiver gets one verified user.status.block", async () => {
    const first = await call(putBlock, {
      apiKey,
      method: "PUT",
      params: { userId: "wh-twice" },
      body: { comment: "Mule account", reviewer: "ana" },
    });
    const second = await call(putBlock, {
      apiKey,
      method: "PUT",
      params: { userId: "wh-twice" },
      body: { comment: "Mule account", reviewer: "ana" },
    });
    expect([first.body.changed, second.body.changed]).toEqual([true, false]);
    await deliverPending();

    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.verified).toBe(true);
    expect(got.event).toBe("user.status.block");
    expect(got.body).toEqual({
      event: "user.status.block",
      payload: {
        id: "wh-twice",
        status: "blocked",
        reason: "Mule account (reviewer: ana)",
        updatedAt: first.body.updatedAt,
      },
      timestamp: expect.any(Number),
    });
  });

  it("unblocking a user who is not blocked sends nothing; unblocking a blocked one sends one", async () => {
    receiver.received.length = 0;
    const none = await call(putUnblock, {
      apiKey,
      method: "PUT",
      params: { userId: "wh-never-blocked" },
      body: {},
    });
    expect(none.body.changed).toBe(false);
    await deliverPending();
    expect(receiver.received).toHaveLength(0);

    const res = await call(putUnblock, {
      apiKey,
      method: "PUT",
      params: { userId: "wh-twice" },
      body: { comment: "Cleared", reviewer: "bob" },
    });
    await call(putUnblock, { apiKey, method: "PUT", params: { userId: "wh-twice" }, body: {} });
    await deliverPending();
    expect(receiver.received.map((r) => [r.event, r.verified])).toEqual([["user.status.unblock", true]]);
    expect((receiver.received[0]!.body as { payload: unknown }).payload).toEqual({
      id: "wh-twice",
      status: "active",
      reason: "Cleared (reviewer: bob)",
      updatedAt: res.body.updatedAt,
    });
  });
});
