// A server whose `timezone` is not UTC (PostgreSQL's default follows the host's) must not shift any
// time the service reads: Prisma's pg adapter reads a timestamptz as if its printed offset were +00:00,
// so lib/db.ts sets every connection's session time zone to UTC.
import { beforeAll, describe, expect, it } from "vitest";
import { adminQuery } from "@/tests/pg-admin";

const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
// +05:30: a whole-hour offset would hide a half-hour misreading
await adminQuery(`ALTER DATABASE "${database}" SET timezone TO 'Asia/Kolkata'`);

const { prisma, pgPool } = await import("@/lib/db");
const transactionRoute = await import("@/app/v1/transaction/route");
const transactionByIdRoute = await import("@/app/v1/transaction/[id]/route");
const { call, createTestClient } = await import("@/tests/factories");

describe("a database whose time zone is not UTC", () => {
  let apiKey: string;
  let clientId: string;
  beforeAll(async () => {
    ({ apiKey, clientId } = await createTestClient());
  });

  it("is what a new session of this database gets (the test would prove nothing otherwise)", async () => {
    const pg = await import("pg");
    const plain = new pg.default.Client({ connectionString: process.env.DATABASE_URL });
    await plain.connect();
    try {
      const { rows } = await plain.query<{ TimeZone: string }>("SHOW timezone");
      expect(rows[0]!.TimeZone).toBe("Asia/Kolkata");
    } finally {
      await plain.end();
    }
  });

  it("stores and answers a transaction's time exactly, through Prisma and through the SQL path", async () => {
    const timestamp = Date.UTC(2026, 10, 26, 23, 45, 12, 345);
    const id = `tz-${Date.now()}`;
    const res = await call(transactionRoute.POST, {
      apiKey,
      body: { id, userId: "u-tz", status: "APPROVED", currencyCode: "USD", amount: 100, timestamp },
    });
    expect(res.status).toBe(200);

    const stored = await prisma.transaction.findUniqueOrThrow({ where: { clientId_id: { clientId, id } } });
    expect(stored.occurredAt.toISOString()).toBe(new Date(timestamp).toISOString());
    const { rows } = await pgPool().query<{ occurredAt: Date; ms: string; tz: string }>(
      `SELECT "occurredAt", (extract(epoch FROM "occurredAt") * 1000)::bigint::text AS ms,
              current_setting('TimeZone') AS tz
         FROM "transactions" WHERE "clientId" = $1 AND "id" = $2`,
      [clientId, id],
    );
    expect(rows[0]!.tz).toBe("UTC");
    expect(rows[0]!.ms).toBe(String(timestamp));
    expect(rows[0]!.occurredAt.getTime()).toBe(timestamp);

    const read = await call(transactionByIdRoute.GET, { apiKey, params: { id } });
    expect(read.status).toBe(200);
    // the assessment's own time, as the screening answered it
    expect(read.body.timestamp).toBe(res.body.timestamp);
  });
});
