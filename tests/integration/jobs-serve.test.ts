import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST, PUT } from "@/app/api/inngest/route";
import { prisma } from "@/lib/db";
import { canonicalJson } from "@/lib/json/canonical-json";
import { inngestSignature } from "@/lib/jobs/serve-signature";
import { servingSigningKey } from "@/lib/jobs/signing-key";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { createSubscription } from "@/lib/webhooks/create-subscription";
import { createTestClient } from "@/tests/factories";
import { startReceiver, type TReceiver } from "@/tests/support/webhook-receiver";

// The serve endpoint as the in-process driver (or an Inngest server) calls it.
const SECRET = "whsec_serve-endpoint-test";
const FN_ID = "risk-screening-deliver-webhooks";
let receiver: TReceiver;
let deliveryId: string;

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  const { clientId } = await createTestClient();
  await createSubscription({
    clientId,
    clientType: "consumer",
    url: receiver.url,
    events: ["alert.created"],
    secret: SECRET,
  });
  await prisma.$transaction((tx) =>
    emitWebhookEvent(tx, {
      clientId,
      event: "alert.created",
      payload: {
        transactionId: "t1",
        ruleId: "R1",
        ruleName: "Rule",
        level: "high",
        reason: "r",
        recommendedAction: "REVIEW",
        alertedAt: 1,
      },
    }),
  );
  deliveryId = (await prisma.webhookDelivery.findFirstOrThrow({ where: { clientId } })).id;
});

afterAll(async () => {
  await receiver.close();
});

function executionBody() {
  const event = { id: "evt-1", name: "webhook/delivery.requested", data: { deliveryId }, ts: Date.now() };
  // A batch, as the driver or an Inngest server sends it for a function with batchEvents.
  const unknown = {
    id: "evt-2",
    name: "webhook/delivery.requested",
    data: { deliveryId: "dlv-gone" },
    ts: 1,
  };
  return canonicalJson({
    event,
    events: [event, unknown],
    steps: {},
    ctx: {
      run_id: "run-1",
      attempt: 0,
      max_attempts: 5,
      disable_immediate_execution: false,
      use_api: false,
      stack: { stack: [], current: 0 },
    },
    version: 2,
  });
}

function execute(body: string, signature?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature) headers["x-inngest-signature"] = signature;
  const req = new Request(`http://127.0.0.1/api/inngest?fnId=${FN_ID}&stepId=step`, {
    method: "POST",
    headers,
    body,
  });
  return POST(req as never, undefined);
}

describe("POST /api/inngest", () => {
  it("refuses an unsigned execution request", async () => {
    const res = await execute(executionBody());
    expect(res.status).toBe(401);
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses forged, tampered and expired signatures", async () => {
    const body = executionBody();
    const forged = await execute(
      body,
      inngestSignature(body, "signkey-prod-00000000000000000000000000000000"),
    );
    expect(forged.status).toBe(401);
    const tampered = await execute(
      body.replace(deliveryId, "someone-else"),
      inngestSignature(body, servingSigningKey()!),
    );
    expect(tampered.status).toBe(401);
    const old = Math.floor(Date.now() / 1000) - 600;
    const expired = await execute(body, inngestSignature(body, servingSigningKey()!, old));
    expect(expired.status).toBe(401);
    expect(expired.headers.get("server-timing")).toBeNull();
    expect(receiver.received).toHaveLength(0);
  });

  it("runs the first step of a correctly signed request and reports it as a step operation", async () => {
    const body = executionBody();
    const res = await execute(body, inngestSignature(body, servingSigningKey()!));
    expect(res.status).toBe(206);
    // the SDK's step timings are not told to the caller
    expect(res.headers.get("server-timing")).toBeNull();
    const ops = (await res.json()) as Array<{ id: string; op: string; data: any }>;
    expect(ops).toHaveLength(1);
    expect(ops[0]!.op).toBe("StepRun");
    expect(ops[0]!.id).toBe(createHash("sha1").update("send-attempts").digest("hex"));
    expect(ops[0]!.data).toEqual([
      expect.objectContaining({ deliveryId, skipped: false, attempt: 1, ok: true, responseStatus: 200 }),
      { deliveryId: "dlv-gone", skipped: true, status: "missing" },
    ]);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verified).toBe(true);
    expect(receiver.received[0]!.deliveryId).toBe(deliveryId);
    // Sending is only the first step: the attempt is recorded by the next one.
    expect(await prisma.webhookAttempt.count({ where: { deliveryId } })).toBe(0);
  });
});

describe("GET and PUT /api/inngest", () => {
  it("refuses unsigned introspection and sync without an Inngest server", async () => {
    const get = await GET(new Request("http://127.0.0.1/api/inngest") as never, undefined);
    expect(get.status).toBe(401);
    const put = await PUT(
      new Request("http://127.0.0.1/api/inngest", { method: "PUT", body: "{}" }) as never,
      undefined,
    );
    expect(put.status).toBe(405);
  });
});
