import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { createSubscription } from "@/lib/webhooks/create-subscription";
import { emitWebhookEvent, WEBHOOK_DELIVERY_EVENT } from "@/lib/webhooks/emit";
import { createTestClient } from "@/tests/factories";

function cli(...args: string[]) {
  const res = spawnSync("npx", ["tsx", "lib/cli/main.ts", ...args], {
    env: { ...process.env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

async function failedDelivery() {
  const { clientId } = await createTestClient();
  await createSubscription({
    clientId,
    clientType: "consumer",
    url: "https://hooks.example.com/x",
    events: ["user.status.block"],
    secret: "s",
  });
  await prisma.$transaction((tx) =>
    emitWebhookEvent(tx, {
      clientId,
      event: "user.status.block",
      payload: { id: "u1", status: "blocked", reason: "fraud (by alice)", updatedAt: 1 },
    }),
  );
  const delivery = await prisma.webhookDelivery.findFirstOrThrow({ where: { clientId } });
  await prisma.webhookDelivery.update({
    where: { id: delivery.id },
    data: { status: "failed", attempts: 9, lastError: "HTTP 500" },
  });
  return { clientId, deliveryId: delivery.id };
}

describe("webhooks redeliver (operator CLI)", () => {
  it("requeues a failed delivery of the client and refuses another client's", async () => {
    const { clientId, deliveryId } = await failedDelivery();
    const other = await createTestClient();
    const refused = cli("webhooks", "redeliver", "--client", other.clientId, "--delivery", deliveryId);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Delivery not found");

    const res = cli("webhooks", "redeliver", "--client", clientId, "--delivery", deliveryId);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ id: deliveryId, status: "pending", requeued: true });
    const row = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "pending", lastError: null });
    const requests = await prisma.outboxEvent.findMany({ where: { name: WEBHOOK_DELIVERY_EVENT, clientId } });
    expect(
      requests.filter((e) => (e.data as { deliveryId?: string }).deliveryId === deliveryId),
    ).toHaveLength(2);
  });
});
