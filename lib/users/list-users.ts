import { z } from "zod";
import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { RULE_RISK_LEVELS } from "@/lib/risk/risk-levels";
import { STORED_USER_STATUSES } from "@/lib/users/schemas";

// Dashboard users list (not part of /v1): search by id, name or email prefix, status filter, keyset by id;
// each user with the risk a reviewer acts on, the open cases and alerts and the last activity.

const emptyAsUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const USERS_MAX_LIMIT = 100;

export const ZListUsersQuery = z.object({
  q: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
  status: z.preprocess(emptyAsUndefined, z.enum(STORED_USER_STATUSES).optional()),
  after: z.preprocess(emptyAsUndefined, z.string().max(500).optional()),
  limit: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(USERS_MAX_LIMIT).default(50)),
});
export type TListUsersQuery = z.infer<typeof ZListUsersQuery>;

export type TUserListItem = {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  status: string;
  /** The highest level among the open alerts, else the latest transaction's, else the onboarding screening's. */
  riskLevel: string | null;
  riskSource: TRiskSource | null;
  /** Alerts not yet settled (open or escalated). */
  openAlerts: number;
  /** The user's cases not yet closed (a reviewer works a person through them). */
  openCases: number;
  /** The latest transaction or event, else the user's creation. */
  lastActivityAt: number;
  createdAt: number;
  updatedAt: number;
};

export type TRiskSource = "open_alerts" | "latest_transaction" | "onboarding";

const UNSETTLED_ALERT_STATUSES = ["open", "escalated"];
// Risk levels from the least to the most severe ("n/a" ranks lowest), for max() over alert levels.
const LEVEL_ORDER = ["n/a", ...RULE_RISK_LEVELS];

/** LIKE pattern for "starts with", the user's %, _ and \\ taken literally. */
function prefixPattern(q: string): string {
  return `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type TUserRow = {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  status: string;
  riskLevel: string | null;
  createdAt: Date;
  updatedAt: Date;
  openAlerts: number;
  openCases: number;
  openLevelRank: number | null;
  lastTransactionLevel: string | null;
  lastActivityAt: Date | null;
};

function riskOf(u: TUserRow): { riskLevel: string | null; riskSource: TRiskSource | null } {
  const openLevel = u.openLevelRank ? LEVEL_ORDER[u.openLevelRank - 1] : undefined;
  if (u.openAlerts > 0 && openLevel) return { riskLevel: openLevel, riskSource: "open_alerts" };
  if (u.lastTransactionLevel) return { riskLevel: u.lastTransactionLevel, riskSource: "latest_transaction" };
  if (u.riskLevel) return { riskLevel: u.riskLevel, riskSource: "onboarding" };
  return { riskLevel: null, riskSource: null };
}

/**
 * Users ordered by id (the primary key, or (clientId, status, id) with a status filter), `after` the
 * last id of the previous page. A search matches a case-insensitive prefix of the id, the email, the
 * first or the last name: each arm has its own expression index (migration dashboard_indexes), so a
 * search never scans the client's users. The page's open alerts, latest transaction and latest event are
 * read per user through the (clientId, userId, …) indexes, so their cost grows with the page, not the client.
 */
export async function listUsers({
  clientId,
  query,
}: {
  clientId: string;
  query: TListUsersQuery;
}): Promise<{ users: TUserListItem[]; nextCursor: string | null }> {
  const conditions: Prisma.Sql[] = [Prisma.sql`"clientId" = ${clientId}`];
  if (query.status) conditions.push(Prisma.sql`status = ${query.status}`);
  if (query.after) conditions.push(Prisma.sql`id > ${query.after}`);
  if (query.q) {
    const p = prefixPattern(query.q);
    conditions.push(Prisma.sql`(id = ${query.q} OR lower(id) LIKE ${p} OR lower(email) LIKE ${p}
      OR lower("firstName") LIKE ${p} OR lower("lastName") LIKE ${p})`);
  }
  const rows = await prisma.$queryRaw<TUserRow[]>(Prisma.sql`
    WITH page AS (
      SELECT id, "firstName", "lastName", email, phone, status, "riskLevel", "createdAt", "updatedAt"
      FROM users WHERE ${Prisma.join(conditions, " AND ")}
      ORDER BY id LIMIT ${query.limit + 1}
    )
    SELECT p.*, oa."openAlerts", oa."openLevelRank", oc."openCases", lt."riskLevel" AS "lastTransactionLevel",
      GREATEST(lt."occurredAt", ev."occurredAt", p."createdAt") AS "lastActivityAt"
    FROM page p
    LEFT JOIN LATERAL (
      SELECT count(*)::int AS "openAlerts", max(array_position(${LEVEL_ORDER}::text[], a.level)) AS "openLevelRank"
      FROM alerts a
      WHERE a."clientId" = ${clientId} AND a."userId" = p.id AND a.status = ANY(${UNSETTLED_ALERT_STATUSES}::text[])
    ) oa ON true
    LEFT JOIN LATERAL (
      SELECT count(*)::int AS "openCases" FROM cases c
      WHERE c."clientId" = ${clientId} AND c."subjectType" = 'user' AND c."subjectId" = p.id AND c.status <> 'closed'
    ) oc ON true
    LEFT JOIN LATERAL (
      SELECT t."riskLevel", t."occurredAt" FROM transactions t
      WHERE t."clientId" = ${clientId} AND t."userId" = p.id ORDER BY t."occurredAt" DESC LIMIT 1
    ) lt ON true
    LEFT JOIN LATERAL (
      SELECT e."occurredAt" FROM events e
      WHERE e."clientId" = ${clientId} AND e."userId" = p.id ORDER BY e."occurredAt" DESC LIMIT 1
    ) ev ON true
    ORDER BY p.id`);
  const page = rows.slice(0, query.limit);
  return {
    nextCursor: rows.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
    users: page.map((u) => ({
      id: u.id,
      name: [u.firstName, u.lastName].filter(Boolean).join(" ") || null,
      email: u.email,
      phone: u.phone,
      status: u.status,
      ...riskOf(u),
      openAlerts: u.openAlerts,
      openCases: u.openCases,
      lastActivityAt: (u.lastActivityAt ?? u.createdAt).getTime(),
      createdAt: u.createdAt.getTime(),
      updatedAt: u.updatedAt.getTime(),
    })),
  };
}
