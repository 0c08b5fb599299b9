import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";

process.env.RATE_LIMIT_PER_SECOND = "5";

const { withClient, methods } = await import("@/lib/http/with-client");
const { ApiError } = await import("@/lib/http/errors");
const { revokeApiKey } = await import("@/lib/auth/api-keys");
const rulesRoute = await import("@/app/v1/rules/route");
const catchAll = await import("@/app/v1/[...rest]/route");
const { call, createTestClient, extraKey } = await import("@/tests/factories");

const ZNested = z.object({
  amount: z.number().min(0),
  id: z.string(),
  recipients: z.array(z.object({ bank: z.object({ accountNumber: z.string() }) })).optional(),
});

const echo = withClient(async ({ body }) => ({ ok: true, body: await body(ZNested) }));
const boom = withClient(async () => {
  throw new Error("secret internal detail: connection string postgres://x");
});

function expectErrorBody(body: any, type: string) {
  expect(body).toMatchObject({ error: { type, message: expect.any(String) }, timestamp: expect.any(Number) });
  expect(Math.abs(body.timestamp - Date.now())).toBeLessThan(60_000);
}

describe("the /v1 wrapper", () => {
  let apiKey: string;
  let clientId: string;

  beforeAll(async () => {
    ({ apiKey, clientId } = await createTestClient());
  });

  describe("authentication", () => {
    it("accepts a Bearer key and an X-API-Key header", async () => {
      expect((await call(rulesRoute.GET, { apiKey })).status).toBe(200);
      const res = await call(rulesRoute.GET, { headers: { "x-api-key": apiKey } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it.each([
      ["missing", {}],
      ["malformed", { authorization: "Token abc" }],
      ["empty bearer", { authorization: "Bearer " }],
      ["unknown", { authorization: "Bearer rsk_doesnotexist000000000000000000" }],
      ["unknown X-API-Key", { "x-api-key": "nope" }],
    ])("answers 401 UNAUTHORIZED for a %s key", async (_name, headers) => {
      const res = await call(rulesRoute.GET, { headers });
      expect(res.status).toBe(401);
      expectErrorBody(res.body, "UNAUTHORIZED");
    });

    it("answers 401 for a revoked key, while the client's other keys still work", async () => {
      const second = await extraKey(clientId);
      expect((await call(rulesRoute.GET, { apiKey: second })).status).toBe(200);
      expect(await revokeApiKey({ apiKey: second })).toBe(true);
      const res = await call(rulesRoute.GET, { apiKey: second });
      expect(res.status).toBe(401);
      expectErrorBody(res.body, "UNAUTHORIZED");
      expect((await call(rulesRoute.GET, { apiKey })).status).toBe(200);
    });
  });

  describe("validation", () => {
    it("reports zod failures as JSON-pointer details in the contract's wording", async () => {
      const res = await call(echo, { apiKey: await extraKey(clientId), body: { amount: -1 } });
      expect(res.status).toBe(400);
      expectErrorBody(res.body, "VALIDATION_ERROR");
      expect(res.body.error.message).toBe("Request validation failed");
      expect(res.body.error.details).toEqual(
        expect.arrayContaining(["/amount: Expected number to be greater or equal to 0", "/id: Required"]),
      );
    });

    it("names nested and array paths", async () => {
      const res = await call(echo, {
        apiKey: await extraKey(clientId),
        body: {
          amount: 1,
          id: "x",
          recipients: [{ bank: { accountNumber: "1" } }, { bank: { accountNumber: 7 } }],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual(["/recipients/1/bank/accountNumber: Expected string"]);
    });

    it("reports a wrong whole body at /", async () => {
      const res = await call(echo, { apiKey: await extraKey(clientId), body: [1, 2] });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual(["/: Expected object"]);
    });

    it("answers malformed JSON with VALIDATION_ERROR at /", async () => {
      const res = await call(echo, { apiKey: await extraKey(clientId), rawBody: '{"amount": 1,' });
      expect(res.status).toBe(400);
      expectErrorBody(res.body, "VALIDATION_ERROR");
      expect(res.body.error.details[0]).toMatch(/^\/: /);
    });

    it("ignores unknown fields", async () => {
      const res = await call(echo, {
        apiKey: await extraKey(clientId),
        body: { amount: 1, id: "a", extra: true },
      });
      expect(res.status).toBe(200);
      expect(res.body.body).toEqual({ amount: 1, id: "a" });
    });
  });

  it("answers 413 PAYLOAD_TOO_LARGE over 1 MiB", async () => {
    const big = JSON.stringify({ id: "x", amount: 1, pad: "a".repeat(1024 * 1024) });
    const res = await call(echo, { apiKey: await extraKey(clientId), rawBody: big });
    expect(res.status).toBe(413);
    expectErrorBody(res.body, "PAYLOAD_TOO_LARGE");
  });

  it("answers 404 NOT_FOUND for unknown /v1 paths", async () => {
    const res = await call(catchAll.GET as never, { path: "/v1/nothing-here" });
    expect(res.status).toBe(404);
    expectErrorBody(res.body, "NOT_FOUND");
  });

  it("answers 405 METHOD_NOT_ALLOWED with Allow for methods a route does not serve", async () => {
    const res = await call(rulesRoute.DELETE, { apiKey, method: "DELETE" });
    expect(res.status).toBe(405);
    expectErrorBody(res.body, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("answers 500 INTERNAL_ERROR without internals", async () => {
    const res = await call(boom, { apiKey: await extraKey(clientId) });
    expect(res.status).toBe(500);
    expectErrorBody(res.body, "INTERNAL_ERROR");
    expect(JSON.stringify(res.body)).not.toMatch(/postgres|secret|stack/i);
  });

  it("logs a client that closed its connection mid-body at debug level, not as an error", async () => {
    const aborted = () => {
      // What Node's HTTP server raises in the body stream when the client goes away (abortIncoming).
      const err = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
      return new Request("http://localhost/v1/test", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: new ReadableStream({ pull: (controller) => controller.error(err) }),
        duplex: "half",
      } as RequestInit);
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const logs = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const quiet = await echo(aborted(), { params: Promise.resolve({}) });
      expect(quiet.status).toBe(500);
      expect(errors).not.toHaveBeenCalled();
      expect(logs).not.toHaveBeenCalled();
      process.env.LOG_LEVEL = "debug";
      await echo(aborted(), { params: Promise.resolve({}) });
      expect(errors).not.toHaveBeenCalled();
      expect(logs.mock.calls.map((c) => JSON.parse(String(c[0])))).toEqual([
        expect.objectContaining({
          level: "debug",
          message: expect.stringContaining("closed the connection"),
        }),
      ]);
      // any other failure is still an error
      await call(boom, { apiKey: await extraKey(clientId) });
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      delete process.env.LOG_LEVEL;
      errors.mockRestore();
      logs.mockRestore();
    }
  });

  it("maps thrown ApiErrors to their status", async () => {
    const route = methods({
      GET: withClient(async () => {
        throw new ApiError(404, "NOT_FOUND", "Transaction not found", [
          "/transactionId: Transaction not found",
        ]);
      }),
    });
    const res = await call(route.GET, { apiKey: await extraKey(clientId) });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      type: "NOT_FOUND",
      message: "Transaction not found",
      details: ["/transactionId: Transaction not found"],
    });
  });

  it("rate-limits per key with 429 and Retry-After (burst of twice the rate)", async () => {
    const key = await extraKey(clientId);
    let passed = 0;
    let limited: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < 200 && !limited; i++) {
      const res = await call(rulesRoute.GET, { apiKey: key });
      if (res.status === 429) limited = res;
      else passed++;
    }
    expect(passed).toBeGreaterThanOrEqual(10);
    expect(limited?.status).toBe(429);
    expectErrorBody(limited!.body, "RATE_LIMITED");
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // another key of the same client has its own bucket
    expect((await call(rulesRoute.GET, { apiKey: await extraKey(clientId) })).status).toBe(200);
  });
});
