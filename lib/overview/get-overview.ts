import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { recent, recentStore } from "@/lib/cache/recent";
import { HOUR_MS, hourlyStore, readHourly } from "@/lib/cache/read-hourly";
import { riskRank } from "@/lib/risk/risk-levels";

export type TOverview = {
  /** 24 hourly buckets, oldest first, of transactions screened (by screening time). */
  perHour: { hour: number; count: number }[];
  screened24h: number;
  byRiskLevel: { key: string; count: number }[];
  byAction: { key: string; count: number }[];
  openAlerts: { count: number; capped: boolean };
  topRules7d: { ruleId: string; ruleName: string; count: number }[];
  generatedAt: number;
};

/** Beyond this the badge reads "10,000+": counting a huge backlog exactly buys nothing. */
export const OPEN_ALERTS_CAP = 10_000;

type TScreeningRow = { hour: Date; riskLevel: string; recommendedAction: string; count: bigint };
type TRuleRow = { hour: Date; ruleId: string; ruleName: string; count: bigint };
const screeningHours = hourlyStore<TScreeningRow>();
const ruleHours = hourlyStore<TRuleRow>();

/**
 * The overview page: every figure is bounded by time (the 24 hours and the 7 × 24 hours that end with the
 * current hour) or capped. The hourly figures are read by hour through the (clientId, createdAt) indexes of
 * transactions and alerts, settled hours once per process (readHourly); the open alerts through
 * (clientId, status, createdAt) of alerts.
 */
export async function getOverview({
  clientId,
  now = new Date(),
}: {
  clientId: string;
  now?: Date;
}): Promise<TOverview> {
  const end = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
  const start = new Date(end.getTime() - 24 * HOUR_MS);
  const weekStart = new Date(end.getTime() - 7 * 24 * HOUR_MS);

  const [screenings, openAlerts, ruleRows] = await Promise.all([
    // One pass over the hours of transactions gives all three screening figures.
    readHourly(screeningHours, clientId, { start, end, now }, (from, to) =>
      prisma.$queryRaw<TScreeningRow[]>(Prisma.sql`
        SELECT date_bin('1 hour', "createdAt", TIMESTAMPTZ 'epoch') AS hour, "riskLevel", "recommendedAction", count(*) AS count
        FROM transactions
        WHERE "clientId" = ${clientId} AND "createdAt" >= ${from} AND "createdAt" < ${to}
        GROUP BY 1, 2, 3`),
    ),
    prisma.$queryRaw<{ count: bigint }[]>(Prisma.sql`
      SELECT count(*) AS count FROM (
        SELECT 1 FROM alerts WHERE "clientId" = ${clientId} AND status = 'open' LIMIT ${OPEN_ALERTS_CAP + 1}
      ) capped`),
    readHourly(ruleHours, clientId, { start: weekStart, end, now }, (from, to) =>
      prisma.$queryRaw<TRuleRow[]>(Prisma.sql`
        SELECT date_bin('1 hour', "createdAt", TIMESTAMPTZ 'epoch') AS hour, "ruleId", max("ruleName") AS "ruleName", count(*) AS count
        FROM alerts
        WHERE "clientId" = ${clientId} AND "createdAt" >= ${from} AND "createdAt" < ${to}
        GROUP BY 1, 2`),
    ),
  ]);

  // a rule's name as its latest alert gave it
  const rules = new Map<string, { ruleId: string; ruleName: string; count: number; at: number }>();
  for (const row of ruleRows) {
    const rule = rules.get(row.ruleId) ?? { ruleId: row.ruleId, ruleName: row.ruleName, count: 0, at: 0 };
    rule.count += Number(row.count);
    if (row.hour.getTime() >= rule.at)
      Object.assign(rule, { ruleName: row.ruleName, at: row.hour.getTime() });
    rules.set(row.ruleId, rule);
  }
  const topRules = [...rules.values()]
    .sort((a, b) => b.count - a.count || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0))
    .slice(0, 8)
    .map(({ ruleId, ruleName, count }) => ({ ruleId, ruleName, count }));

  const perHour = Array.from({ length: 24 }, (_, i) => ({ hour: start.getTime() + i * HOUR_MS, count: 0 }));
  const byLevel = new Map<string, number>();
  const byAction = new Map<string, number>();
  let total = 0;
  for (const row of screenings) {
    const n = Number(row.count);
    total += n;
    const slot = perHour[Math.floor((row.hour.getTime() - start.getTime()) / HOUR_MS)];
    if (slot) slot.count += n;
    byLevel.set(row.riskLevel, (byLevel.get(row.riskLevel) ?? 0) + n);
    byAction.set(row.recommendedAction, (byAction.get(row.recommendedAction) ?? 0) + n);
  }
  const sorted = (m: Map<string, number>) =>
    [...m.entries()]
      .map(([key, count]) => ({ key, count }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  const open = Number(openAlerts[0]?.count ?? 0);
  return {
    perHour,
    screened24h: total,
    // most severe first, as a reviewer reads risk (not by count)
    byRiskLevel: [...byLevel.entries()]
      .map(([key, count]) => ({ key, count }))
      .sort((a, b) => riskRank(b.key) - riskRank(a.key)),
    byAction: sorted(byAction),
    openAlerts: { count: Math.min(open, OPEN_ALERTS_CAP), capped: open > OPEN_ALERTS_CAP },
    topRules7d: topRules,
    generatedAt: now.getTime(),
  };
}

/** How old the overview's figures may be: even the open hours' reads are too many for every page view. */
export const OVERVIEW_MAX_AGE_MS = 30_000;
const overviews = recentStore<TOverview>();

/** The overview as the page shows it: computed at most every OVERVIEW_MAX_AGE_MS per client. */
export function getRecentOverview({ clientId }: { clientId: string }): Promise<TOverview> {
  return recent(overviews, clientId, OVERVIEW_MAX_AGE_MS, () => getOverview({ clientId }));
}
