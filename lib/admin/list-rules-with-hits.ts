import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

export type TRuleRow = {
  ruleId: string;
  name: string;
  subject: string;
  status: string;
  riskLevel: string;
  recommendedAction: string;
  version: number;
  updatedAt: number;
  hits24h: number;
  hits7d: number;
  /** Hits per day, oldest first, the last entry is the current day (7 entries). */
  daily: number[];
};

const DAY_MS = 86_400_000;

/**
 * Rules at their current versions with hit counts. Hits are the alerts the rule opened (active
 * rules), counted from the (clientId, createdAt) index over 7 days only, so the cost is bounded by
 * a week of alerts, not by history.
 */
export async function listRulesWithHits(user: TSessionUser, now = Date.now()): Promise<TRuleRow[]> {
  const clientId = user.clientId;
  const rules = await prisma.rule.findMany({
    where: { clientId },
    orderBy: { ruleId: "asc" },
    take: 1000,
    select: {
      id: true,
      ruleId: true,
      subject: true,
      status: true,
      currentVersion: true,
      updatedAt: true,
      versions: { orderBy: { version: "desc" }, take: 1, select: { name: true, riskLevel: true, recommendedAction: true } },
    },
  });
  const since = new Date(now - 7 * DAY_MS);
  const buckets = await prisma.$queryRaw<Array<{ ruleRef: string; day: number; hits: bigint; hits24h: bigint }>>(Prisma.sql`
    SELECT "ruleRef",
           floor(extract(epoch FROM (${new Date(now)}::timestamptz - "createdAt")) * 1000 / ${DAY_MS})::int AS day,
           count(*) AS hits,
           count(*) FILTER (WHERE "createdAt" > ${new Date(now - DAY_MS)}::timestamptz) AS "hits24h"
    FROM "alerts"
    WHERE "clientId" = ${clientId} AND "createdAt" > ${since}::timestamptz AND "createdAt" <= ${new Date(now)}::timestamptz
    GROUP BY 1, 2`);
  const byRef = new Map<string, { daily: number[]; hits24h: number }>();
  for (const b of buckets) {
    const entry = byRef.get(b.ruleRef) ?? { daily: [0, 0, 0, 0, 0, 0, 0], hits24h: 0 };
    const index = 6 - Math.min(6, Math.max(0, b.day));
    entry.daily[index] = (entry.daily[index] ?? 0) + Number(b.hits);
    entry.hits24h += Number(b.hits24h);
    byRef.set(b.ruleRef, entry);
  }
  return rules.map((rule) => {
    const hits = byRef.get(rule.id);
    const daily = hits?.daily ?? [0, 0, 0, 0, 0, 0, 0];
    const v = rule.versions[0];
    return {
      ruleId: rule.ruleId,
      name: v?.name ?? rule.ruleId,
      subject: rule.subject,
      status: rule.status,
      riskLevel: v?.riskLevel ?? "n/a",
      recommendedAction: v?.recommendedAction ?? "",
      version: rule.currentVersion,
      updatedAt: rule.updatedAt.getTime(),
      hits24h: hits?.hits24h ?? 0,
      hits7d: daily.reduce((a, b) => a + b, 0),
      daily,
    };
  });
}
