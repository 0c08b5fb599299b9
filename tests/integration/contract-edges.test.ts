import { beforeAll, describe, expect, it } from "vitest";
import * as eventRoute from "@/app/v1/event/route";
import * as merchantRoute from "@/app/v1/merchantRequest/route";
import * as transactionRoute from "@/app/v1/transaction/route";
import * as transactionByIdRoute from "@/app/v1/transaction/[id]/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import * as userRoute from "@/app/v1/user/route";
import { prisma } from "@/lib/db";
import { MAX_ID_LENGTH } from "@/lib/validation/ids";
import { countAllRows } from "@/tests/support/fuzz-routes";
import { call, createTestClient } from "@/tests/factories";

// Small contract edges: an id that collides with a static path, ids longer than can be stored.

let apiKey: string;
const at = () => Date.now() - 60_000;
const tx = (over: Record<string, unknown>) => ({
  id: "t-edge",
  userId: "u-edge",
  status: "PENDING",
  currencyCode: "EUR",
  amount: 10,
  timestamp: at(),
  ...over,
});

beforeAll(async () => {
  ({ apiKey } = await createTestClient({
    type: "business",
    features: ["merchantRiskAssessment", "eventRules"],
  }));
});

describe("a transaction whose id is `update`", () => {
  it("is readable at GET /v1/transaction/update, exactly as any id at /v1/transaction/{id}", async () => {
    const missing = await call(updateRoute.GET, { apiKey, path: "/v1/transaction/update" });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: "NOT_FOUND", details: ["/id: Transaction not found"] });

    const created = await call(transactionRoute.POST, { apiKey, body: tx({ id: "update" }) });
    expect(created.status).toBe(200);
    const read = await call(updateRoute.GET, { apiKey, path: "/v1/transaction/update" });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: "update", riskLevel: created.body.riskLevel });
    const other = await call(transactionRoute.POST, { apiKey, body: tx({ id: "t-other" }) });
    expect(other.status).toBe(200);
    const byId = await call(transactionByIdRoute.GET, { apiKey, params: { id: "t-other" } });
    expect(Object.keys(read.body).sort()).toEqual(Object.keys(byId.body).sort());
    // POST still updates
    const updated = await call(updateRoute.POST, {
      apiKey,
      body: { transactionId: "update", status: "APPROVED", reason: "R01" },
    });
    expect(updated.status).toBe(200);
  });
});

describe("ids longer than can be stored", () => {
  const long = "x".repeat(MAX_ID_LENGTH + 1);
  const exact = "y".repeat(MAX_ID_LENGTH);
  const message = `must be at most ${MAX_ID_LENGTH} characters`;

  it.each([
    ["POST /v1/transaction id", transactionRoute.POST, tx({ id: long }), "/id"],
    [
      "POST /v1/transaction userId",
      transactionRoute.POST,
      tx({ id: "t-long-user", userId: long }),
      "/userId",
    ],
    [
      "POST /v1/transaction merchantId",
      transactionRoute.POST,
      tx({ id: "t-long-merchant", merchantId: long }),
      "/merchantId",
    ],
    ["POST /v1/user id", userRoute.POST, { id: long, timestamp: at() }, "/id"],
    ["POST /v1/merchantRequest id", merchantRoute.POST, { id: long, timestamp: at() }, "/id"],
    [
      "POST /v1/event id",
      eventRoute.POST,
      { id: long, type: "LOGIN", userId: "u-edge", timestamp: at() },
      "/id",
    ],
    [
      "POST /v1/transaction/update transactionId",
      updateRoute.POST,
      { transactionId: long, status: "APPROVED" },
      "/transactionId",
    ],
  ])("%s: a 400 naming the field, nothing stored", async (_name, handler, body, field) => {
    const before = await countAllRows();
    const res = await call(handler, { apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toContain(`${field}: ${message}`);
    expect(await countAllRows()).toEqual(before);
  });

  it("accepts an id of exactly the maximum length", async () => {
    const res = await call(transactionRoute.POST, { apiKey, body: tx({ id: exact, userId: exact }) });
    expect(res.status).toBe(200);
    const read = await call(transactionByIdRoute.GET, { apiKey, params: { id: exact } });
    expect(read.status).toBe(200);
    expect(await prisma.transaction.count({ where: { id: exact } })).toBe(1);
  });
});
