import { beforeAll, describe, expect, it } from "vitest";
import * as transactionRoute from "@/app/v1/transaction/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import { prisma } from "@/lib/db";
import { call, createTestClient } from "@/tests/factories";

const now = () => Date.now();
const DAY = 24 * 60 * 60 * 1000;

function tx(overrides: Record<string, unknown> = {}) {
  return {
    id: `t-${Math.random().toString(36).slice(2)}`,
    userId: "u-1",
    status: "APPROVED",
    currencyCode: "USD",
    amount: 10,
    timestamp: now() - 1000,
    ...overrides,
  };
}

describe("POST /v1/transaction validation", () => {
  let apiKey: string;
  let clientId: string;
  beforeAll(async () => {
    ({ apiKey, clientId } = await createTestClient());
  });

  async function rejects(body: unknown, detail: string | RegExp) {
    const before = await prisma.transaction.count({ where: { clientId } });
    const res = await call(transactionRoute.POST, { apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toBe("Request validation failed");
    expect(typeof res.body.timestamp).toBe("number");
    const details: string[] = res.body.error.details;
    if (typeof detail === "string") expect(details).toContain(detail);
    else expect(details.some((d) => detail.test(d))).toBe(true);
    expect(await prisma.transaction.count({ where: { clientId } })).toBe(before);
  }

  it("accepts a minimal valid transaction", async () => {
    const res = await call(transactionRoute.POST, { apiKey, body: tx() });
    expect(res.status).toBe(200);
  });

  it.each([
    ["amount below 0", { amount: -1 }, "/amount: Expected number to be greater or equal to 0"],
    ["amount not a number", { amount: "10" }, "/amount: Expected number"],
    ["missing id", { id: undefined }, "/id: Required"],
    ["missing status", { status: undefined }, "/status: Required"],
    ["unknown status", { status: "DONE" }, /^\/status: /],
    ["missing currencyCode", { currencyCode: undefined }, "/currencyCode: Required"],
    ["missing amount", { amount: undefined }, "/amount: Required"],
    ["missing timestamp", { timestamp: undefined }, "/timestamp: Required"],
    [
      "timestamp in the future",
      { timestamp: now() + DAY },
      "/timestamp: Timestamp must not be in the future",
    ],
    [
      "timestamp older than a year",
      { timestamp: now() - 366 * DAY },
      "/timestamp: Timestamp must not be older than 365 days",
    ],
    ["neither userId nor user", { userId: undefined }, /^\/userId: /],
    ["both userId and user", { user: { id: "u-1", timestamp: now() - 1000 } }, /^\/user: /],
    ["userDeviceId with userDevice", { userDeviceId: "d1", userDevice: { id: "d1" } }, /^\/userDevice: /],
    [
      "merchantId with merchant",
      { merchantId: "m1", merchant: { id: "m1", name: "M", timestamp: now() - 1000 } },
      /^\/merchant: /,
    ],
    ["recipient with recipients", { recipient: { id: "r1" }, recipients: [{ id: "r2" }] }, /^\/recipients: /],
    ["paymentMethod without its object", { paymentMethod: "card" }, /^\/card: /],
    [
      "recipient paymentMethod without its object",
      { recipient: { id: "r", paymentMethod: "bank" } },
      /^\/recipient\/bank: /,
    ],
    [
      "recipients[1] paymentMethod without its object",
      { recipients: [{ id: "a" }, { id: "b", paymentMethod: "wallet" }] },
      /^\/recipients\/1\/wallet: /,
    ],
    [
      "partial billing address",
      { billingAddress: { country: "US" } },
      "/billingAddress/postalCode: Required",
    ],
    [
      "partial user address",
      { userId: undefined, user: { id: "u9", timestamp: now() - 1000, address: { postalCode: "1" } } },
      "/user/address/country: Required",
    ],
    [
      "an inline user's timestamp before 1970 (not storable as a date)",
      { userId: undefined, user: { id: "u-old", timestamp: -62_198_755_200_000 } },
      "/user/timestamp: Expected epoch milliseconds from 0 (1970-01-01)",
    ],
    ["card expiryMonth 13", { paymentMethod: "card", card: { expiryMonth: "13" } }, /^\/card\/expiryMonth: /],
    ["wrong direction", { direction: "sideways" }, /^\/direction: /],
    ["unknown paymentMethod", { paymentMethod: "gold" }, /^\/paymentMethod: /],
    ["body not an object", "just a string", "/: Expected object"],
  ])("rejects %s", async (_name, overrides, detail) => {
    await rejects(typeof overrides === "string" ? overrides : tx(overrides), detail);
  });

  it("accepts an explicit null userDeviceId", async () => {
    const res = await call(transactionRoute.POST, { apiKey, body: tx({ userDeviceId: null }) });
    expect(res.status).toBe(200);
  });
});

describe("POST /v1/transaction/update validation", () => {
  let apiKey: string;
  beforeAll(async () => {
    ({ apiKey } = await createTestClient());
  });

  it.each([
    ["missing transactionId", {}, "/transactionId: Required"],
    ["empty method object", { transactionId: "x", transaction: { bank: {} } }, /^\/transaction\/bank: /],
    [
      "paymentMethod without its object",
      { transactionId: "x", transaction: { paymentMethod: "card" } },
      /^\/transaction\/card: /,
    ],
    [
      "feedback without id",
      { transactionId: "x", feedback: { status: "APPROVED" } },
      "/feedback/id: Required",
    ],
    ["unknown status", { transactionId: "x", status: "MAYBE" }, /^\/status: /],
  ])("rejects %s", async (_name, body, detail) => {
    const res = await call(updateRoute.POST, { apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("VALIDATION_ERROR");
    const details: string[] = res.body.error.details;
    if (typeof detail === "string") expect(details).toContain(detail);
    else expect(details.some((d) => detail.test(d))).toBe(true);
  });

  it("answers 404 naming /transactionId for an unknown transaction", async () => {
    const res = await call(updateRoute.POST, { apiKey, body: { transactionId: "nope", status: "DECLINED" } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      type: "NOT_FOUND",
      message: "Transaction not found",
      details: ["/transactionId: Transaction not found"],
    });
  });
});
