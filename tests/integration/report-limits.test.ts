import { beforeAll, describe, expect, it } from "vitest";

// One request must not buy minutes of work: a report names at most REPORT_TRANSACTIONS_MAX transactions,
// and every inline transaction (a screening) is charged to the key's rate limit before anything is stored.
// One request a second with a burst of two makes the charge visible without timing.
process.env.RATE_LIMIT_PER_SECOND = "1";

const { POST: postReport } = await import("@/app/v1/report/route");
const { POST: postBulk } = await import("@/app/v1/reports/bulk/route");
const { REPORT_TRANSACTIONS_MAX } = await import("@/lib/reports/schemas");
const { prisma } = await import("@/lib/db");
const { call, createTestClient, extraKey } = await import("@/tests/factories");
const { countAllRows } = await import("@/tests/support/fuzz-routes");

let clientId: string;

const tx = (id: string) => ({
  id,
  userId: "limit-user",
  status: "APPROVED",
  currencyCode: "KES",
  amount: 10,
  timestamp: Date.now() - 1000,
  direction: "payout",
});

beforeAll(async () => {
  ({ clientId } = await createTestClient({ features: ["reporting"] }));
});

describe("POST /v1/report limits", () => {
  it(`refuses more than ${REPORT_TRANSACTIONS_MAX} transactions or transactionIds with a 400 naming the field`, async () => {
    for (const [field, items] of [
      ["transactions", Array.from({ length: REPORT_TRANSACTIONS_MAX + 1 }, (_, i) => tx(`over-${i}`))],
      ["transactionIds", Array.from({ length: REPORT_TRANSACTIONS_MAX + 1 }, (_, i) => `over-${i}`)],
    ] as const) {
      const apiKey = await extraKey(clientId);
      const rows = await countAllRows();
      const res = await call(postReport, {
        apiKey,
        body: { reportType: "STR", [field]: items },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.details).toEqual([
        `/${field}: Expected array length less or equal to ${REPORT_TRANSACTIONS_MAX}`,
      ]);
      expect(await countAllRows()).toEqual(rows);
    }
  });

  it("charges the rate limit one request per inline transaction, before storing anything", async () => {
    // the burst is two: the request and one screening fit, the request and three do not
    const apiKey = await extraKey(clientId);
    const rows = await countAllRows();
    const refused = await call(postReport, {
      apiKey,
      body: { reportType: "STR", transactions: [tx("charged-1"), tx("charged-2"), tx("charged-3")] },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(429);
    expect(refused.body.error.type).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await countAllRows()).toEqual(rows);

    const fits = await call(postReport, {
      apiKey: await extraKey(clientId),
      body: {
        reportType: "STR",
        user: { id: "limit-user", timestamp: Date.now() - 1000 },
        transactions: [tx("fits-1")],
      },
    });
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect(await prisma.transaction.count({ where: { clientId, id: "fits-1" } })).toBe(1);
  });

  it("charges bulk reports one request per report and per inline transaction", async () => {
    const apiKey = await extraKey(clientId);
    const rows = await countAllRows();
    const refused = await call(postBulk, {
      apiKey,
      body: { reports: [{ reportType: "STR", transactions: [tx("bulk-1"), tx("bulk-2")] }] },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(429);
    expect(await countAllRows()).toEqual(rows);
    const three = await call(postBulk, {
      apiKey: await extraKey(clientId),
      body: { reports: [1, 2, 3].map(() => ({ reportType: "STR", userId: "limit-user" })) },
    });
    expect(three.status, JSON.stringify(three.body)).toBe(429);
    const two = await call(postBulk, {
      apiKey: await extraKey(clientId),
      body: { reports: [1, 2].map(() => ({ reportType: "STR", userId: "limit-user" })) },
    });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
  });
});
