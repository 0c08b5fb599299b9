// Links between users: two users are linked when they share a value of an indexed identifier kind
// (the `user_identifiers` rows written from user records, devices and the transactions a user sent).
//
// - A value held by more users than the client's fan-out cap links nobody (a public IP, a payment
//   processor's account would otherwise link everyone) and is reported in `capped` with its count.
// - Depth 2: users linked to a depth-1 user, never the user itself; each user once, at its smallest
//   depth. `via` lists the values that link it (for depth 2: to a depth-1 user).
// - `since`: only links through uses at or after it, on both sides (a use is a transaction that
//   carried the value, or the indexing of a value from a user record or device).
// - Every lookup is an index scan: the user's values by ("clientId", "userId"), the holders of a value
//   by the primary key prefix ("clientId", "kind", "value").
import { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db";
import { IDENTIFIER_KINDS, type TIdentifierKind } from "@/lib/users/index-identifiers";

export type TLinkQuery = {
  clientId: string;
  userId: string;
  depth: 1 | 2;
  /** Only these kinds link (default: all; an empty list: none). */
  kinds?: readonly TIdentifierKind[];
  /** Only links through uses at or after this time. */
  since?: Date;
  /** The client's fan-out cap (`clients.linkFanOutCap`, see clientFanOutCap). */
  fanOutCap: number;
};

export type TLinkVia = { kind: TIdentifierKind; value: string };
export type TUserLink = { userId: string; depth: 1 | 2; via: TLinkVia[] };
export type TCappedIdentifier = { kind: TIdentifierKind; value: string; users: number };
/** The body of GET /v1/users/{userId}/links. */
export type TUserLinks = { userId: string; links: TUserLink[]; capped: TCappedIdentifier[] };

/** A `via` with what the dashboard shows beside it (never part of the /v1 body). */
export type TLinkViaDetail = TLinkVia & {
  /** Since when both users have had the value (the later of their first uses). */
  since: string;
  /** The linked user's latest use of the value. */
  lastUsedAt: string;
  /** How many of the linked user's transactions carried the value. */
  transactions: number;
};
export type TUserLinkDetail = { userId: string; depth: 1 | 2; via: TLinkViaDetail[] };
export type TUserLinkDetails = { userId: string; links: TUserLinkDetail[]; capped: TCappedIdentifier[] };

type TDb = Pick<Tx, "$queryRaw">;

type TEdgeRow = {
  depth: number;
  userId: string;
  kind: TIdentifierKind;
  value: string;
  since: Date;
  lastUsedAt: Date;
  transactions: number;
};
type TCappedRow = { kind: TIdentifierKind; value: string; users: number };

/**
 * First and last use of an identifier row `i` joined with its uses row `u`: a value a transaction
 * carried is used when the transaction happened (by its own timestamp); one never carried by a
 * transaction, when it was indexed from a user record or device.
 */
function seen(i: string, u: string) {
  return Prisma.raw(
    `least(${i}."createdAt", ${u}."firstUsedAt") AS "firstSeen",
     coalesce(${u}."lastUsedAt", ${i}."createdAt") AS "lastSeen",
     coalesce(${u}."transactionCount", 0) AS "transactions"`,
  );
}

function usesJoin(i: string, u: string) {
  return Prisma.raw(
    `LEFT JOIN "user_identifier_uses" ${u} ON ${u}."clientId" = ${i}."clientId" AND ${u}."kind" = ${i}."kind"
       AND ${u}."value" = ${i}."value" AND ${u}."userId" = ${i}."userId"`,
  );
}

/** Holders of a value (the primary key's prefix: an index-only count). */
function holders(clientId: string, alias: string) {
  return Prisma.sql`(SELECT count(*) FROM "user_identifiers" h
      WHERE h."clientId" = ${clientId} AND h."kind" = ${Prisma.raw(alias)}."kind"
        AND h."value" = ${Prisma.raw(alias)}."value")::int`;
}

/** The client's fan-out cap (default 50). */
export async function clientFanOutCap(db: TDb, clientId: string): Promise<number> {
  const rows = await db.$queryRaw<{ cap: number }[]>(
    Prisma.sql`SELECT "linkFanOutCap" AS "cap" FROM "clients" WHERE "id" = ${clientId}`,
  );
  return rows[0]?.cap ?? 50;
}

/** Whether the client knows the user (a stored user, or one its identifiers name). */
async function userExists(db: TDb, clientId: string, userId: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ known: boolean }[]>(Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM "users" WHERE "clientId" = ${clientId} AND "id" = ${userId})
        OR EXISTS (SELECT 1 FROM "user_identifiers" WHERE "clientId" = ${clientId} AND "userId" = ${userId})
      AS "known"`);
  return rows[0]?.known === true;
}

async function readEdges(
  db: TDb,
  { clientId, userId, depth, kinds, since, fanOutCap }: TLinkQuery,
): Promise<{ edges: TEdgeRow[]; capped: TCappedRow[] }> {
  // an explicit empty list links through nothing (the network view with only counterparties chosen)
  if (kinds && kinds.length === 0) return { edges: [], capped: [] };
  const kindList = [...(kinds ?? IDENTIFIER_KINDS)];
  const after = since ?? null;
  const sinceOk = (mine: string, other: string) =>
    after
      ? Prisma.sql`${Prisma.raw(mine)} >= ${after} AND ${Prisma.raw(other)} >= ${after}`
      : Prisma.sql`TRUE`;
  const first = Prisma.sql`
    me AS (
      SELECT i."kind", i."value", ${seen("i", "u")}
      FROM "user_identifiers" i ${usesJoin("i", "u")}
      WHERE i."clientId" = ${clientId} AND i."userId" = ${userId} AND i."kind" = ANY(${kindList}::text[])),
    v1 AS (SELECT me.*, ${holders(clientId, "me")} AS "users" FROM me),
    e1 AS (
      SELECT o."userId", v1."kind", v1."value", v1."firstSeen" AS "myFirst", v1."lastSeen" AS "myLast", ${seen("o", "ou")}
      FROM v1 JOIN "user_identifiers" o ON o."clientId" = ${clientId} AND o."kind" = v1."kind"
        AND o."value" = v1."value" AND o."userId" <> ${userId}
      ${usesJoin("o", "ou")}
      WHERE v1."users" <= ${fanOutCap}),
    l1 AS (SELECT * FROM e1 WHERE ${sinceOk(`"myLast"`, `"lastSeen"`)})`;
  // Depth 2 reads each value of the depth-1 users once (not once per holder), skips the user's own
  // values (their holders are depth 1 already), and leaves out depth-1 users by a hashed NOT IN.
  const second =
    depth === 2
      ? Prisma.sql`,
    u1 AS MATERIALIZED (SELECT DISTINCT "userId" FROM l1),
    m2 AS (
      SELECT i."kind", i."value", min(least(i."createdAt", u."firstUsedAt")) AS "firstSeen",
        max(coalesce(u."lastUsedAt", i."createdAt")) AS "lastSeen"
      FROM u1 JOIN "user_identifiers" i ON i."clientId" = ${clientId} AND i."userId" = u1."userId"
      ${usesJoin("i", "u")}
      WHERE i."kind" = ANY(${kindList}::text[])
        AND NOT EXISTS (SELECT 1 FROM me WHERE me."kind" = i."kind" AND me."value" = i."value")
      GROUP BY i."kind", i."value"),
    v2 AS (SELECT m2.*, ${holders(clientId, "m2")} AS "users" FROM m2),
    l2 AS (
      SELECT o."userId", v2."kind", v2."value", v2."firstSeen" AS "myFirst", ${seen("o", "ou")}
      FROM v2 JOIN "user_identifiers" o ON o."clientId" = ${clientId} AND o."kind" = v2."kind" AND o."value" = v2."value"
        AND o."userId" <> ${userId}
      ${usesJoin("o", "ou")}
      WHERE v2."users" <= ${fanOutCap}
        AND ${sinceOk(`v2."lastSeen"`, `coalesce(ou."lastUsedAt", o."createdAt")`)}
        AND o."userId" NOT IN (SELECT "userId" FROM u1))`
      : Prisma.empty;
  // one statement: the link rows, then the capped values (a value may be capped at both depths)
  const rows = await db.$queryRaw<Array<TEdgeRow & { users: number | null }>>(Prisma.sql`
    WITH ${first}${second}
    SELECT 1 AS "depth", "userId", "kind", "value", greatest("myFirst", "firstSeen") AS "since",
      "lastSeen" AS "lastUsedAt", "transactions"::int AS "transactions", NULL::int AS "users" FROM l1
    ${
      depth === 2
        ? Prisma.sql`UNION ALL
    SELECT 2, "userId", "kind", "value", greatest("myFirst", "firstSeen"), "lastSeen", "transactions"::int, NULL FROM l2
    UNION ALL SELECT 0, NULL, "kind", "value", NULL, NULL, NULL, "users" FROM v2 WHERE "users" > ${fanOutCap}`
        : Prisma.empty
    }
    UNION ALL SELECT 0, NULL, "kind", "value", NULL, NULL, NULL, "users" FROM v1 WHERE "users" > ${fanOutCap}`);
  const edges = rows.filter((r) => r.depth !== 0);
  const capped = new Map<string, TCappedRow>();
  for (const r of rows) {
    if (r.depth === 0)
      capped.set(`${r.kind}\u0000${r.value}`, { kind: r.kind, value: r.value, users: r.users! });
  }
  return { edges, capped: [...capped.values()] };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function assemble(userId: string, edges: TEdgeRow[], capped: TCappedRow[]): TUserLinkDetails {
  const byUser = new Map<string, { depth: 1 | 2; via: Map<string, TLinkViaDetail> }>();
  for (const e of edges) {
    const depth = e.depth === 1 ? 1 : 2;
    let link = byUser.get(e.userId);
    if (!link || depth < link.depth) {
      link = { depth, via: new Map() };
      byUser.set(e.userId, link);
    } else if (depth > link.depth) continue;
    const key = `${e.kind}\u0000${e.value}`;
    const known = link.via.get(key);
    const since = e.since.toISOString();
    const lastUsedAt = e.lastUsedAt.toISOString();
    if (!known) {
      link.via.set(key, { kind: e.kind, value: e.value, since, lastUsedAt, transactions: e.transactions });
    } else {
      // the same value reached through several depth-1 users: the earliest sharing counts
      if (since < known.since) known.since = since;
    }
  }
  const links = [...byUser.entries()]
    .map(([id, link]) => ({
      userId: id,
      depth: link.depth,
      via: [...link.via.values()].sort((a, b) => compare(a.kind, b.kind) || compare(a.value, b.value)),
    }))
    .sort((a, b) => a.depth - b.depth || compare(a.userId, b.userId));
  const cappedOut = capped
    .map((c) => ({ kind: c.kind, value: c.value, users: Number(c.users) }))
    .sort((a, b) => compare(a.kind, b.kind) || compare(a.value, b.value));
  return { userId, links, capped: cappedOut };
}

/**
 * The user's links with, per `via`, since when the value is shared, the linked user's last use and
 * transaction count (dashboard). Null when the client does not know the user.
 */
export async function findUserLinkDetails(db: TDb, query: TLinkQuery): Promise<TUserLinkDetails | null> {
  if (!(await userExists(db, query.clientId, query.userId))) return null;
  const { edges, capped } = await readEdges(db, query);
  return assemble(query.userId, edges, capped);
}

/** The body of GET /v1/users/{userId}/links exactly; null when the client does not know the user. */
export async function findUserLinks(db: TDb, query: TLinkQuery): Promise<TUserLinks | null> {
  const details = await findUserLinkDetails(db, query);
  if (!details) return null;
  return {
    userId: details.userId,
    links: details.links.map((l) => ({
      userId: l.userId,
      depth: l.depth,
      via: l.via.map((v) => ({ kind: v.kind, value: v.value })),
    })),
    capped: details.capped,
  };
}
