import { describe, expect, it } from "vitest";
import { GET, POST } from "@/app/v1/webhooks/route";
import { prisma } from "@/lib/db";
import { call, createTestClient } from "@/tests/factories";

const valid = {
  url: "https://hooks.example.com/risk",
  events: ["transaction.screened", "alert.created"],
  secret: "whsec_top-secret-value",
};

async function expectValidation(apiKey: string, body: unknown, detail: RegExp) {
  const res = await call(POST, { apiKey, body });
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe("VALIDATION_ERROR");
  expect(res.body.error.message).toBe("Request validation failed");
  expect(res.body.error.details).toEqual(expect.arrayContaining([expect.stringMatching(detail)]));
  expect(typeof res.body.timestamp).toBe("number");
}

describe("POST /v1/webhooks", () => {
  it("creates a subscription, never returns the secret and stores it encrypted", async () => {
    const { clientId, apiKey } = await createTestClient({ type: "consumer" });
    const res = await call(POST, { apiKey, body: valid });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "success",
      subscription: { id: expect.any(String), url: valid.url, events: valid.events },
    });
    expect(JSON.stringify(res.body)).not.toContain(valid.secret);

    const row = await prisma.webhookSubscription.findFirstOrThrow({
      where: { clientId, id: res.body.subscription.id },
    });
    expect(row.active).toBe(true);
    expect(row.secretEncrypted).not.toContain(valid.secret);
    expect(row.secretEncrypted).not.toContain(Buffer.from(valid.secret).toString("base64"));
    expect(JSON.stringify(row)).not.toContain(valid.secret);
  });

  it("reports each missing field at its own path", async () => {
    const { apiKey } = await createTestClient();
    await expectValidation(apiKey, { events: valid.events, secret: valid.secret }, /^\/url: Required$/);
    await expectValidation(apiKey, { url: valid.url, secret: valid.secret }, /^\/events: Required$/);
    await expectValidation(apiKey, { url: valid.url, events: valid.events }, /^\/secret: Required$/);
    await expectValidation(apiKey, { url: valid.url, events: valid.events, secret: "" }, /^\/secret: /);
  });

  it("rejects URLs that are not http(s)", async () => {
    const { apiKey } = await createTestClient();
    await expectValidation(apiKey, { ...valid, url: "not a url" }, /^\/url: /);
    await expectValidation(
      apiKey,
      { ...valid, url: "ftp://hooks.example.com/x" },
      /^\/url: must start with http:\/\/ or https:\/\/$/,
    );
    await expectValidation(apiKey, { ...valid, url: 42 }, /^\/url: Expected string$/);
  });

  it("rejects empty, non-array and unknown event lists", async () => {
    const { apiKey } = await createTestClient();
    await expectValidation(
      apiKey,
      { ...valid, events: [] },
      /^\/events: Expected array length greater or equal to 1$/,
    );
    await expectValidation(apiKey, { ...valid, events: "alert.created" }, /^\/events: Expected array$/);
    await expectValidation(
      apiKey,
      { ...valid, events: ["alert.created", "alert.deleted"] },
      /^\/events\/1: /,
    );
  });

  it("limits business clients to their documented event types", async () => {
    const business = await createTestClient({ type: "business" });
    await expectValidation(
      business.apiKey,
      { ...valid, events: ["merchant.screened", "user.screened"] },
      /^\/events\/1: .*user\.screened/,
    );
    const ok = await call(POST, {
      apiKey: business.apiKey,
      body: {
        ...valid,
        events: [
          "transaction.screened",
          "merchant.screened",
          "alert.created",
          "alert.reviewed",
          "transaction.confirmedFraud",
          "transaction.confirmedChargeback",
        ],
      },
    });
    expect(ok.status).toBe(200);

    const consumer = await createTestClient({ type: "consumer" });
    const all = await call(POST, {
      apiKey: consumer.apiKey,
      body: { ...valid, events: ["user.screened", "user.status.block", "event.screened"] },
    });
    expect(all.status).toBe(200);
  });

  it("rejects malformed JSON and a non-object body", async () => {
    const { apiKey } = await createTestClient();
    const res = await call(POST, { apiKey, rawBody: "{nope" });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatch(/^\/: /);
    await expectValidation(apiKey, [1, 2], /^\/: /);
  });

  it("answers 401 without a valid key", async () => {
    expect((await call(POST, { apiKey: null, body: valid })).status).toBe(401);
    const res = await call(GET, { apiKey: "rsk_not-a-real-key" });
    expect(res.status).toBe(401);
    expect(res.body.error.type).toBe("UNAUTHORIZED");
  });
});

describe("GET /v1/webhooks", () => {
  it("lists the client's active subscriptions only, never another client's", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    const first = await call(POST, { apiKey: a.apiKey, body: valid });
    const second = await call(POST, {
      apiKey: a.apiKey,
      body: { ...valid, url: "https://other.example.com/h", events: ["user.screened"] },
    });
    const disabled = await call(POST, { apiKey: a.apiKey, body: valid });
    await prisma.webhookSubscription.update({
      where: { id: disabled.body.subscription.id },
      data: { active: false },
    });
    await call(POST, { apiKey: b.apiKey, body: { ...valid, url: "https://b.example.com/h" } });

    const res = await call(GET, { apiKey: a.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "success",
      subscriptions: [first.body.subscription, second.body.subscription],
    });
    expect(JSON.stringify(res.body)).not.toContain(valid.secret);

    const other = await call(GET, { apiKey: b.apiKey });
    expect(other.body.subscriptions).toHaveLength(1);
    expect(other.body.subscriptions[0].url).toBe("https://b.example.com/h");

    const fresh = await createTestClient();
    expect((await call(GET, { apiKey: fresh.apiKey })).body).toEqual({
      status: "success",
      subscriptions: [],
    });
  });

  it("answers 405 for other methods", async () => {
    const { apiKey } = await createTestClient();
    const { DELETE } = await import("@/app/v1/webhooks/route");
    const res = await call(DELETE, { apiKey, method: "DELETE" });
    expect(res.status).toBe(405);
  });
});
