import { beforeAll, describe, expect, it } from "vitest";
import { listRulesWithHits } from "@/lib/admin/list-rules-with-hits";
import { listAlerts } from "@/lib/alerts/list-alerts";
import { ZListAlertsQuery } from "@/lib/alerts/schemas";
import { prisma } from "@/lib/db";
import { getOverview } from "@/lib/overview/get-overview";
import { HOUR_MS, REREAD_MS } from "@/lib/cache/read-hourly";
import {
  listTransactions,
  ZListTransactionsQuery,
  type TTransactionListItem,
} from "@/lib/transactions/list-transactions";
import { seedDemoRules } from "@/lib/rules/demo-rules";
import { createTestClient } from "@/tests/factories";

// What the dashboard does to stay fast at 10,000,000 transactions (docs/benchmarks-dashboard.md), held to
// the same answers: keyset pages that meet exactly at ties, two filters on one index, and an overview whose
// settled hours are read once.

const MIN = 60_000;

type TRow = { id: string; at: Date; riskLevel?: string; status?: string; userId?: string };

async function insertTransactions(clientId: string, rows: TRow[]) {
  await prisma.transaction.createMany({
    data: rows.map((r) => ({
      clientId,
      id: r.id,
      userId: r.userId ?? "u-1",
      status: r.status ?? "APPROVED",
      currencyCode: "EUR",
      amount: 10,
      occurredAt: r.at,
      data: { id: r.id },
      bodyHash: r.id,
      riskLevel: r.riskLevel ?? "low",
      recommendedAction: r.riskLevel === "high" ? "REVIEW" : "ALLOW",
      assessedAt: r.at,
      createdAt: r.at,
    })),
  });
}

/** Every page of a listing, following nextCursor, as the pager does. */
async function allPages(clientId: string, query: Record<string, string>) {
  const pages: TTransactionListItem[][] = [];
  let cursor: string | undefined;
  do {
    const page = await listTransactions({
      clientId,
      query: ZListTransactionsQuery.parse({ ...query, cursor }),
    });
    pages.push(page.transactions);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 50);
  return pages;
}

describe("transactions list", () => {
  let clientId: string;
  let other: string;
  const base = Date.UTC(2026, 10, 20, 12);
  // 14 rows: five share one instant (a page boundary falls inside them), levels and statuses mixed
  const rows: TRow[] = Array.from({ length: 14 }, (_, i) => ({
    id: `tx-${String(i).padStart(2, "0")}`,
    at: new Date(i >= 4 && i < 9 ? base - 5 * MIN : base - i * MIN),
    riskLevel: i % 3 === 0 ? "high" : "low",
    status: i % 2 === 0 ? "DECLINED" : "APPROVED",
    userId: i < 7 ? "u-1" : "u-2",
  }));
  const newestFirst = (list: TRow[]) =>
    [...list].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id);

  beforeAll(async () => {
    ({ clientId } = await createTestClient());
    ({ clientId: other } = await createTestClient());
    await insertTransactions(clientId, rows);
    // the same ids and times in another client: never on this client's pages
    await insertTransactions(
      other,
      rows.map((r) => ({ ...r, riskLevel: "high", status: "DECLINED" })),
    );
  });

  it("pages by cursor meet exactly, also inside a run of equal times", async () => {
    const pages = await allPages(clientId, { limit: "2" });
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 2, 2, 2, 2]);
    expect(pages.flat().map((t) => t.id)).toEqual(newestFirst(rows));
    // the boundary between pages 3 and 4 and 4 and 5 lies among the five rows of one instant
    expect(pages[3]!.map((t) => t.occurredAt)).toEqual([base - 5 * MIN, base - 5 * MIN]);
  });

  it("filters by risk level and status together, page by page", async () => {
    const pages = await allPages(clientId, { riskLevel: "high", status: "DECLINED", limit: "1" });
    const expected = newestFirst(rows.filter((r) => r.riskLevel === "high" && r.status === "DECLINED"));
    expect(expected).toEqual(["tx-00", "tx-06", "tx-12"]);
    expect(pages.flat().map((t) => t.id)).toEqual(expected);
  });

  it("keeps the user and the date range on every page", async () => {
    const day = new Date(base).toISOString().slice(0, 10);
    const pages = await allPages(clientId, { userId: "u-2", from: day, to: day, limit: "3" });
    expect(pages.flat().map((t) => t.id)).toEqual(newestFirst(rows.filter((r) => r.userId === "u-2")));
    expect(await allPages(clientId, { userId: "u-2", riskLevel: "n/a" })).toEqual([[]]);
  });
});

describe("alerts queue", () => {
  it("pages by cursor meet exactly inside a run of equal times", async () => {
    const { clientId } = await createTestClient();
    const base = Date.UTC(2026, 10, 20, 12);
    // q-0 … q-6; q-2, q-3 and q-4 share one instant
    for (let i = 0; i < 7; i++) {
      const at = new Date(i >= 2 && i <= 4 ? base - 2 * MIN : base - i * MIN);
      await prisma.$executeRaw`
        INSERT INTO alerts (id, "clientId", "transactionId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
          level, reason, "recommendedAction", "createdAt")
        VALUES (${`q-${i}`}, ${clientId}, ${`t-${i}`}, 'R', 'R', 'R', 'R', 'high', 'r', 'REVIEW', ${at})`;
    }
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAlerts({ clientId, query: ZListAlertsQuery.parse({ limit: "2", cursor }) });
      ids.push(...page.alerts.map((a) => a.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(ids).toEqual(["q-0", "q-1", "q-4", "q-3", "q-2", "q-5", "q-6"]);
  });
});

describe("overview by hour", () => {
  it("counts each screening once as its hour settles, and the open hour afresh", async () => {
    const { clientId } = await createTestClient();
    // hour H, well in the past, as the overview's clock (`now`) is passed in
    const H = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 30 * HOUR_MS;
    const at = (ms: number) => new Date(H + ms);
    const overview = async (nowMs: number) => {
      const o = await getOverview({ clientId, now: at(nowMs) });
      return {
        screened: o.screened24h,
        hours: o.perHour.filter((h) => h.count > 0).map((h) => [(h.hour - H) / HOUR_MS, h.count]),
        levels: o.byRiskLevel,
      };
    };
    await insertTransactions(clientId, [
      { id: "t-old", at: at(-25 * HOUR_MS) }, // outside the 24 hours
      { id: "t-1", at: at(-2 * HOUR_MS + 10 * MIN), riskLevel: "high" },
      { id: "t-2", at: at(30 * MIN) },
    ]);
    expect(await overview(58 * MIN)).toEqual({
      screened: 2,
      hours: [
        [-2, 1],
        [0, 1],
      ],
      levels: [
        { key: "high", count: 1 },
        { key: "low", count: 1 },
      ],
    });
    // a row written late into hour H, within minutes of its end, still counts
    await insertTransactions(clientId, [{ id: "t-3", at: at(59 * MIN) }]);
    expect((await overview(HOUR_MS + 2 * MIN)).hours).toEqual([
      [-2, 1],
      [0, 2],
    ]);
    // hour H settled: read once, counted once, and the new open hour is read afresh on every call
    expect((await overview(HOUR_MS + 20 * MIN)).hours).toEqual([
      [-2, 1],
      [0, 2],
    ]);
    await insertTransactions(clientId, [{ id: "t-4", at: at(HOUR_MS + 25 * MIN), riskLevel: "high" }]);
    expect(await overview(HOUR_MS + 30 * MIN)).toEqual({
      screened: 4,
      hours: [
        [-2, 1],
        [0, 2],
        [1, 1],
      ],
      levels: [
        { key: "high", count: 2 },
        { key: "low", count: 2 },
      ],
    });
    // a settled hour's row changes (a resubmission re-screened t-1 as low): the kept figures are read again
    // once they are REREAD_MS old, not before
    await prisma.$executeRaw`UPDATE transactions SET "riskLevel" = 'low' WHERE "clientId" = ${clientId} AND id = 't-1'`;
    expect((await overview(HOUR_MS + 35 * MIN)).levels).toEqual([
      { key: "high", count: 2 },
      { key: "low", count: 2 },
    ]);
    expect((await overview(HOUR_MS + 30 * MIN + REREAD_MS)).levels).toEqual([
      { key: "high", count: 1 },
      { key: "low", count: 3 },
    ]);
    // 23 hours on, t-1's hour has left the window
    expect((await overview(22 * HOUR_MS + 30 * MIN)).screened).toBe(3);
  });

  it("top rules cover the 7 × 24 hours that end with the current hour, per client", async () => {
    const { clientId } = await createTestClient();
    const { clientId: other } = await createTestClient();
    const H = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 30 * HOUR_MS;
    const alert = (client: string, id: string, ruleId: string, ms: number, ruleName = ruleId) =>
      prisma.$executeRaw`
        INSERT INTO alerts (id, "clientId", "transactionId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
          level, reason, "recommendedAction", "createdAt")
        VALUES (${id}, ${client}, ${id}, ${ruleId}, ${ruleId}, ${ruleId}, ${ruleName}, 'high', 'r', 'REVIEW',
          ${new Date(H + ms)})`;
    await alert(clientId, "a-1", "R-A", -167 * HOUR_MS); // the window's first hour
    await alert(clientId, "a-0", "R-A", -167 * HOUR_MS - 1); // just before it
    await alert(clientId, "a-2", "R-B", -3 * HOUR_MS);
    await alert(clientId, "a-3", "R-B", 10 * MIN, "Rule B renamed");
    await alert(other, "a-4", "R-A", 10 * MIN);
    const top = async (nowMs: number) =>
      (await getOverview({ clientId, now: new Date(H + nowMs) })).topRules7d;
    expect(await top(20 * MIN)).toEqual([
      { ruleId: "R-B", ruleName: "Rule B renamed", count: 2 },
      { ruleId: "R-A", ruleName: "R-A", count: 1 },
    ]);
    await alert(clientId, "a-5", "R-A", 30 * MIN);
    await alert(clientId, "a-6", "R-A", 40 * MIN);
    expect(await top(50 * MIN)).toEqual([
      { ruleId: "R-A", ruleName: "R-A", count: 3 },
      { ruleId: "R-B", ruleName: "Rule B renamed", count: 2 },
    ]);
  });
});

describe("rules list hit counts by hour", () => {
  it("counts a rule's alerts per 24 hours of the week that ends with the current hour, as hours settle", async () => {
    const { clientId } = await createTestClient();
    const { clientId: other } = await createTestClient();
    await seedDemoRules(clientId);
    const rule = (await prisma.rule.findFirst({
      where: { clientId, status: "active", subject: "transaction" },
      orderBy: { ruleId: "asc" },
    }))!;
    const user = { id: "u", clientId, email: "o@x.test", name: null, role: "reporting_officer" as const };
    const H = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 30 * HOUR_MS;
    let n = 0;
    const alert = (client: string, ms: number) =>
      prisma.$executeRaw`
        INSERT INTO alerts (id, "clientId", "transactionId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
          level, reason, "recommendedAction", "createdAt")
        VALUES (${`h-${++n}`}, ${client}, ${`t-${n}`}, ${rule.id}, ${rule.ruleId}, 'v', 'n', 'high', 'r', 'REVIEW',
          ${new Date(H + ms)})`;
    const hits = async (nowMs: number) => {
      const row = (await listRulesWithHits(user, H + nowMs)).find((r) => r.ruleId === rule.ruleId)!;
      return { hits24h: row.hits24h, hits7d: row.hits7d, daily: row.daily };
    };
    await alert(clientId, 10 * MIN); // the current hour
    await alert(clientId, -23 * HOUR_MS); // the first hour of the last 24
    await alert(clientId, -23 * HOUR_MS - 1); // the day before
    await alert(clientId, -6 * 24 * HOUR_MS - 23 * HOUR_MS); // the week's first hour
    await alert(clientId, -7 * 24 * HOUR_MS + HOUR_MS - 1); // before the week
    await alert(other, 10 * MIN);
    expect(await hits(20 * MIN)).toEqual({ hits24h: 2, hits7d: 4, daily: [1, 0, 0, 0, 0, 1, 2] });
    // a later alert in the open hour; then the hour settles and the next one opens
    await alert(clientId, 50 * MIN);
    expect(await hits(55 * MIN)).toEqual({ hits24h: 3, hits7d: 5, daily: [1, 0, 0, 0, 0, 1, 3] });
    await alert(clientId, HOUR_MS + 5 * MIN);
    expect(await hits(HOUR_MS + 10 * MIN)).toEqual({ hits24h: 3, hits7d: 5, daily: [0, 0, 0, 0, 0, 2, 3] });
  });
});
