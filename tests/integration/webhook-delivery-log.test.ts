import { beforeAll, describe, expect, it, vi } from "vitest";
import { createWebhookSubscription, listWebhookDeliveries } from "@/lib/admin/webhooks";
import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { recordDeliveryAttempt } from "@/lib/webhooks/record-delivery-attempt";
import { sendDeliveryAttempt } from "@/lib/webhooks/send-delivery-attempt";
import { createTestClient } from "@/tests/factories";

// The delivery log as the dashboard reads it, after real connection errors: a delivery that failed and
// waits for its next attempt is "retrying" with that time, and "Failed only" (status=failing) finds it.

vi.hoisted(() => {
  // as a development install: private targets accepted here, refused by production
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
});

let admin: TSessionUser;

beforeAll(async () => {
  const { clientId } = await createTestClient();
  admin = { id: "du-log", clientId, email: "admin@log.test", name: null, role: "admin" };
});

async function deliveryTo(url: string) {
  await createWebhookSubscription(admin, { url, events: ["user.status.block"] });
  await prisma.$transaction((tx) =>
    emitWebhookEvent(tx, {
      clientId: admin.clientId,
      event: "user.status.block",
      payload: { id: "u1", status: "blocked", reason: "fraud", updatedAt: 1 },
    }),
  );
  const subscription = await prisma.webhookSubscription.findFirstOrThrow({
    where: { clientId: admin.clientId, url },
  });
  return prisma.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: subscription.id } });
}

describe("webhook delivery log", () => {
  it("warns outside production that production would refuse a private target", async () => {
    const created = await createWebhookSubscription(admin, {
      url: "http://10.0.0.5/hook",
      events: ["user.status.block"],
    });
    expect(created.productionWarning).toBe("must not point to a loopback or private-network address");
    const publicTarget = await createWebhookSubscription(admin, {
      url: "https://hooks.example.com/hook",
      events: ["user.status.block"],
    });
    expect(publicTarget.productionWarning).toBeNull();
  });

  it("shows a refused connection as retrying with its next attempt, then failed; Failed only finds both", async () => {
    // nothing listens on port 9: the connection is refused
    const delivery = await deliveryTo("http://127.0.0.1:9/refused");
    const sent = await sendDeliveryAttempt({ deliveryId: delivery.id });
    if (sent.skipped) throw new Error("not sent");
    expect(sent.responseStatus).toBeNull();
    expect(sent.error).toBeTruthy();
    const retryAt = sent.startedAt + sent.durationMs + 30_000;
    await recordDeliveryAttempt({ deliveryId: delivery.id, outcome: sent, retryAt });

    const failing = await listWebhookDeliveries(admin, { status: "failing", limit: 50 });
    const row = failing.deliveries.find((d) => d.id === delivery.id);
    expect(row).toMatchObject({ status: "pending", state: "retrying", attempts: 1, nextAttemptAt: retryAt });
    expect(row?.lastError).toBe(sent.error);
    expect(row?.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, responseStatus: null, error: sent.error }),
    ]);

    // a delivery not yet attempted is pending, not failing
    const fresh = await deliveryTo("http://127.0.0.1:9/fresh");
    const all = await listWebhookDeliveries(admin, { limit: 50 });
    expect(all.deliveries.find((d) => d.id === fresh.id)?.state).toBe("pending");
    expect(failing.deliveries.map((d) => d.id)).not.toContain(fresh.id);

    const again = await sendDeliveryAttempt({ deliveryId: delivery.id });
    if (again.skipped) throw new Error("not sent");
    await recordDeliveryAttempt({ deliveryId: delivery.id, outcome: again, retryAt: null });
    const after = await listWebhookDeliveries(admin, { status: "failing", limit: 50 });
    expect(after.deliveries.find((d) => d.id === delivery.id)).toMatchObject({
      state: "failed",
      attempts: 2,
      nextAttemptAt: null,
    });
    const failedOnly = await listWebhookDeliveries(admin, { status: "failed", limit: 50 });
    expect(failedOnly.deliveries.map((d) => d.id)).toEqual([delivery.id]);
  });
});
