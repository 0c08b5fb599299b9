import { describe, expect, it, vi } from "vitest";

// docs/decisions.md §7 in production: loopback and private-network targets are refused unless
// WEBHOOK_ALLOW_PRIVATE_TARGETS=true. lib/env reads the environment at import, hence vi.hoisted.
vi.hoisted(() => {
  (process.env as Record<string, string>).NODE_ENV = "production";
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
});

const { POST } = await import("@/app/v1/webhooks/route");
const { call, createTestClient } = await import("@/tests/factories");

const body = (url: string) => ({ url, events: ["alert.created"], secret: "whsec_prod" });

describe("POST /v1/webhooks in production", () => {
  it.each([
    "http://127.0.0.1:8080/hook",
    "http://localhost/hook",
    "http://[::1]/hook",
    "https://10.1.2.3/hook",
    "https://192.168.0.10/hook",
    "http://169.254.169.254/latest/meta-data",
  ])("refuses %s", async (url) => {
    const { apiKey } = await createTestClient();
    const res = await call(POST, { apiKey, body: body(url) });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toEqual(["/url: must not point to a loopback or private-network address"]);
  });

  it("accepts a public target", async () => {
    const { apiKey } = await createTestClient();
    const res = await call(POST, { apiKey, body: body("https://hooks.example.com/risk") });
    expect(res.status).toBe(200);
  });
});
