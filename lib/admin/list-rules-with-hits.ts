import type { TSessionUser } from "@/lib/auth/session";
import { recent, recentStore } from "@/lib/cache/recent";
import { HOUR_MS, hourlyStore, readHourly } from "@/lib/cache/read-hourly";
import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { shownVersions } from "@/lib/rules/shown-versions";
import { staleIndicatorsByRule } from "@/lib/admin/goaml-fit";

export type TRuleRow = {
  ruleId: string;
  name: string;
  subject: string;
  status: string;
  riskLevel: string;
  recommendedAction: string;
  /** The live version, else the newest draft. */
  version: number;
  liveVersion: number | null;
  /** A draft newer than the live version is waiting to be published. */
  hasDraft: boolean;
  updatedAt: number;
  hits24h: number;
  hits7d: number;
  /** Hits per day, oldest first, the last entry is the current day (7 entries). */
  daily: number[];
  /** Where hits come from: alerts (active rules) or recorded decisions (dry-run and muted rules). */
  hitsSource: "alerts" | "decisions";
  /** Set when decision hits were counted on the newest SHADOW_SAMPLE decisions only: the time they reach back to. */
  sampledSince: number | null;
  /** Indicator codes the rule → indicator mapping gives this rule that the active goAML schema does not list. */
  staleIndicators: string[];
};

// Dry-run and muted hits live only in decisions (a JSON array per screening); reading at most this
// many of the newest decisions keeps the page fast however busy the week was.
export const SHADOW_SAMPLE = 20_000;
const SHADOW_STATUSES = ["dry-run", "muted"];

const DAY_MS = 86_400_000;

type THits = { byRef: Map<string, { daily: number[]; hits24h: number }>; sampledSince: number | null };

type TRuleHour = { hour: Date; ruleRef: string; hits: bigint };
const alertHours = hourlyStore<TRuleHour>();

/**
 * Hits per rule over the 7 × 24 hours that end with the current hour (daily[6] and hits24h: the last 24 of them):
 * alerts by hour, each settled hour read once per process (readHourly), and with `withShadow` dry-run and muted
 * hits in recent decisions.
 */
async function ruleHits(clientId: string, now: number, withShadow: boolean): Promise<THits> {
  const end = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
  const since = new Date(end - 7 * DAY_MS);
  const until = new Date(end);
  const hours = await readHourly(
    alertHours,
    clientId,
    { start: since, end: until, now: new Date(now) },
    (from, to) =>
      prisma.$queryRaw<TRuleHour[]>(Prisma.sql`
      SELECT date_bin('1 hour', "createdAt", TIMESTAMPTZ 'epoch') AS hour, "ruleRef", count(*) AS hits
      FROM "alerts"
      WHERE "clientId" = ${clientId} AND "createdAt" >= ${from} AND "createdAt" < ${to}
      GROUP BY 1, 2`),
  );
  const byRef = new Map<string, { daily: number[]; hits24h: number }>();
  for (const h of hours) {
    const entry = byRef.get(h.ruleRef) ?? { daily: [0, 0, 0, 0, 0, 0, 0], hits24h: 0 };
    // 0: the last 24 hours
    const day = Math.min(6, Math.max(0, Math.floor((end - 1 - h.hour.getTime()) / DAY_MS)));
    entry.daily[6 - day] = (entry.daily[6 - day] ?? 0) + Number(h.hits);
    if (day === 0) entry.hits24h += Number(h.hits);
    byRef.set(h.ruleRef, entry);
  }
  let sampledSince: number | null = null;
  if (withShadow) {
    const shadow = await prisma.$queryRaw<
      Array<{
        ruleRef: string;
        day: number;
        hits: bigint;
        hits24h: bigint;
        sampled: bigint;
        oldest: Date | null;
      }>
    >(Prisma.sql`
      WITH d AS MATERIALIZED (
        SELECT "createdAt", "evaluated" FROM "decisions"
        WHERE "clientId" = ${clientId} AND "createdAt" >= ${since}::timestamptz AND "createdAt" < ${until}::timestamptz
        ORDER BY "createdAt" DESC LIMIT ${SHADOW_SAMPLE}
      )
      SELECT e->>'ruleRef' AS "ruleRef",
             floor((extract(epoch FROM (${until}::timestamptz - d."createdAt")) * 1000 - 1) / ${DAY_MS})::int AS day,
             count(*) AS hits,
             count(*) FILTER (WHERE d."createdAt" >= ${new Date(end - DAY_MS)}::timestamptz) AS "hits24h",
             (SELECT count(*) FROM d) AS sampled,
             (SELECT min("createdAt") FROM d) AS oldest
      FROM d, jsonb_array_elements(d."evaluated") e
      WHERE jsonb_typeof(d."evaluated") = 'array' AND e->>'triggered' = 'true' AND e->>'status' IN ('dry-run', 'muted')
      GROUP BY 1, 2`);
    for (const b of shadow) {
      const entry = byRef.get(b.ruleRef) ?? { daily: [0, 0, 0, 0, 0, 0, 0], hits24h: 0 };
      const index = 6 - Math.min(6, Math.max(0, b.day));
      entry.daily[index] = (entry.daily[index] ?? 0) + Number(b.hits);
      entry.hits24h += Number(b.hits24h);
      byRef.set(b.ruleRef, entry);
      if (Number(b.sampled) >= SHADOW_SAMPLE && b.oldest) sampledSince = b.oldest.getTime();
    }
  }
  return { byRef, sampledSince };
}

// The rules page reads hit counts at most this old: even the open hours and the decisions sample cost reads.
const RULE_HITS_MAX_AGE_MS = 30_000;
const recentHits = recentStore<THits>();

/**
 * Rules at their live versions (else newest drafts) with hit counts over 7 days. Active rules: the alerts they
 * opened, from the (clientId, createdAt) index, by hour (settled hours read once, see ruleHits). Dry-run
 * and muted rules: triggered entries in the newest decisions (at most SHADOW_SAMPLE).
 */
export async function listRulesWithHits(
  user: TSessionUser,
  now = Date.now(),
  opts: { recent?: boolean } = {},
): Promise<TRuleRow[]> {
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
      liveVersion: true,
      updatedAt: true,
    },
  });
  const [versions, stale] = await Promise.all([
    shownVersions(clientId, rules),
    staleIndicatorsByRule(clientId),
  ]);
  const withShadow = rules.some((r) => SHADOW_STATUSES.includes(r.status));
  const { byRef, sampledSince } = opts.recent
    ? await recent(recentHits, `${clientId}:${withShadow}`, RULE_HITS_MAX_AGE_MS, () =>
        ruleHits(clientId, Date.now(), withShadow),
      )
    : await ruleHits(clientId, now, withShadow);
  return rules.map((rule) => {
    const hits = byRef.get(rule.id);
    const shadowRule = SHADOW_STATUSES.includes(rule.status);
    const daily = hits?.daily ?? [0, 0, 0, 0, 0, 0, 0];
    const v = versions.get(rule.id);
    return {
      ruleId: rule.ruleId,
      name: v?.name ?? rule.ruleId,
      subject: rule.subject,
      status: rule.status,
      riskLevel: v?.riskLevel ?? "n/a",
      recommendedAction: v?.recommendedAction ?? "",
      version: rule.liveVersion ?? rule.currentVersion,
      liveVersion: rule.liveVersion,
      hasDraft: rule.currentVersion > (rule.liveVersion ?? 0),
      updatedAt: rule.updatedAt.getTime(),
      hits24h: hits?.hits24h ?? 0,
      hits7d: daily.reduce((a, b) => a + b, 0),
      daily,
      hitsSource: shadowRule ? "decisions" : "alerts",
      sampledSince: shadowRule ? sampledSince : null,
      staleIndicators: stale.get(rule.ruleId) ?? [],
    };
  });
}
