import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { findCounterparties, type TCounterparty } from "@/lib/links/find-counterparties";
import { clientFanOutCap, findUserLinkDetails } from "@/lib/links/find-user-links";
import {
  NETWORK_COUNTERPARTIES_MAX,
  NETWORK_PEOPLE_MAX,
  type TNetworkQuery,
} from "@/lib/links/network-schemas";
import type { TIdentifierKind } from "@/lib/users/index-identifiers";

export type TNetworkLink = {
  kind: string;
  value: string;
  /** Since when both people have had the value (epoch ms). */
  since: number;
  /** This person's latest use of the value (epoch ms). */
  lastUsedAt: number;
  /** How many of this person's transactions carried the value. */
  transactions: number;
};

export type TNetworkPerson = {
  userId: string;
  name: string | null;
  email: string | null;
  status: string;
  riskLevel: string | null;
  /** 0 for the person the view is about. */
  depth: 0 | 1 | 2;
  openCases: { id: string; status: string; priority: string; alertCount: number }[];
  sanctionsHits: number;
  fraudTransactions: number;
  /** The identifiers that link this person into the network (empty for the person themself). */
  via: TNetworkLink[];
};

/** Someone the person paid or who paid them: a stored user (by id), or an account or a wallet. */
export type TNetworkCounterparty = Omit<TCounterparty, "firstAt" | "lastAt"> & {
  /** The stored user's name and status, when the transaction named a user of the client. */
  name: string | null;
  status: string | null;
  /** First and last transaction between them (epoch ms). */
  firstAt: number;
  lastAt: number;
};

export type TUserNetwork = {
  userId: string;
  depth: 1 | 2;
  people: TNetworkPerson[];
  /** Every shared identifier with the people of the view that hold it (the graph's middle nodes). */
  identifiers: { kind: string; value: string; userIds: string[] }[];
  /** Values shared by more people than the fan-out cap: they link nobody. */
  capped: { kind: string; value: string; users: number }[];
  fanOutCap: number;
  /** More people are linked than the view lists. */
  truncated: boolean;
  /** Who the person paid and who paid them (linked by "counterparty"), most transactions first. */
  counterparties: TNetworkCounterparty[];
  /** More counterparties than the view lists. */
  counterpartiesTruncated: boolean;
};

type TUserRow = {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  status: string;
  riskLevel: string | null;
};

const keyOf = (kind: string, value: string) => `${kind}\u0000${value}`;

/**
 * The people linked to a user as the network view shows them: the links of findUserLinks enriched with
 * each person's name, status, onboarding risk, open cases, sanctions hits and confirmed fraud, and how
 * each identifier links them. Only the client's users; an unknown user is not found.
 */
export async function getUserNetwork({
  clientId,
  userId,
  query,
}: {
  clientId: string;
  userId: string;
  query: TNetworkQuery;
}): Promise<TUserNetwork> {
  const fanOutCap = await clientFanOutCap(prisma, clientId);
  // "counterparty" is not an identifier kind: it asks for the payments; no kinds asks for everything
  const kinds = query.kinds?.filter((k): k is TIdentifierKind => k !== "counterparty");
  const withCounterparties = !query.kinds || query.kinds.includes("counterparty");
  const [found, allParties] = await Promise.all([
    findUserLinkDetails(prisma, {
      clientId,
      userId,
      depth: query.depth,
      kinds,
      since: query.since,
      fanOutCap,
    }),
    withCounterparties ? findCounterparties(prisma, { clientId, userId, since: query.since }) : [],
  ]);
  if (!found) throw notFound("/userId", "User not found");
  const parties = allParties.slice(0, NETWORK_COUNTERPARTIES_MAX);

  const links = [...found.links]
    .sort((a, b) => a.depth - b.depth || b.via.length - a.via.length || a.userId.localeCompare(b.userId))
    .slice(0, NETWORK_PEOPLE_MAX);
  const ids = [userId, ...links.map((l) => l.userId)];
  const viaKeys = new Map<string, { kind: string; value: string }>();
  for (const l of links) for (const v of l.via) viaKeys.set(keyOf(v.kind, v.value), v);
  const pairs = [...viaKeys.values()];

  const inView = new Set(ids);
  const partyIds = [
    ...new Set(parties.flatMap((c) => (c.userId && !inView.has(c.userId) ? [c.userId] : []))),
  ];

  const [users, cases, holders, hits, fraud] = await Promise.all([
    // raw SQL with array parameters: hundreds of ids and values as two arrays, not a statement of
    // a thousand parameters (Prisma's IN and OR lists cost more to build than to run here)
    prisma.$queryRaw<TUserRow[]>(Prisma.sql`
      SELECT "id", "firstName", "lastName", "email", "status", "riskLevel" FROM "users"
      WHERE "clientId" = ${clientId} AND "id" = ANY(${[...ids, ...partyIds]}::text[])`),
    prisma.case.findMany({
      where: { clientId, subjectType: "user", subjectId: { in: ids }, status: { not: "closed" } },
      select: { id: true, subjectId: true, status: true, priority: true, alertCount: true },
      orderBy: [{ dueAt: "asc" }, { id: "asc" }],
    }),
    pairs.length
      ? prisma.$queryRaw<{ kind: string; value: string; userId: string }[]>(Prisma.sql`
          SELECT i."kind", i."value", i."userId"
          FROM unnest(${pairs.map((p) => p.kind)}::text[], ${pairs.map((p) => p.value)}::text[]) AS p("kind", "value")
          JOIN "user_identifiers" i ON i."clientId" = ${clientId} AND i."kind" = p."kind" AND i."value" = p."value"
          WHERE i."userId" = ANY(${ids}::text[])`)
      : [],
    prisma.$queryRaw<{ userId: string; hits: number }[]>(Prisma.sql`
      SELECT u.id AS "userId", count(DISTINCT (h ->> 'datasetId') || '/' || (h ->> 'entityId'))::int AS hits
      FROM users u
      JOIN decisions d ON d."clientId" = u."clientId" AND d.id = u."decisionId"
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(d.evaluated) = 'array' THEN d.evaluated ELSE '[]'::jsonb END) e
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN (e ->> 'triggered') = 'true' AND jsonb_typeof(e -> 'sanctions') = 'array'
             THEN e -> 'sanctions' ELSE '[]'::jsonb END) h
      WHERE u."clientId" = ${clientId} AND u.id = ANY(${ids})
        AND NOT EXISTS (SELECT 1 FROM sanctions_false_matches f
                        WHERE f."clientId" = u."clientId" AND f."userId" = u.id
                          AND f."datasetId" = h ->> 'datasetId' AND f."entityId" = h ->> 'entityId')
      GROUP BY u.id`),
    prisma.$queryRaw<{ userId: string; n: number }[]>(Prisma.sql`
      SELECT "userId", count(*)::int AS n FROM transactions
      WHERE "clientId" = ${clientId} AND "userId" = ANY(${ids}) AND "isFraud"
      GROUP BY "userId"`),
  ]);

  const byUser = new Map(users.map((u) => [u.id, u]));
  const casesOf = new Map<string, TNetworkPerson["openCases"]>();
  for (const c of cases) {
    const list = casesOf.get(c.subjectId) ?? [];
    list.push({ id: c.id, status: c.status, priority: c.priority, alertCount: c.alertCount });
    casesOf.set(c.subjectId, list);
  }
  const hitsOf = new Map(hits.map((h) => [h.userId, h.hits]));
  const fraudOf = new Map(fraud.map((f) => [f.userId, f.n]));
  const holdersOf = new Map<string, Set<string>>();
  for (const h of holders) {
    const set = holdersOf.get(keyOf(h.kind, h.value)) ?? new Set<string>();
    set.add(h.userId);
    holdersOf.set(keyOf(h.kind, h.value), set);
  }
  const person = (id: string, depth: 0 | 1 | 2, via: TNetworkLink[]): TNetworkPerson => {
    const u = byUser.get(id);
    return {
      userId: id,
      name: u ? [u.firstName, u.lastName].filter(Boolean).join(" ") || null : null,
      email: u?.email ?? null,
      status: u?.status ?? "active",
      riskLevel: u?.riskLevel ?? null,
      depth,
      openCases: casesOf.get(id) ?? [],
      sanctionsHits: hitsOf.get(id) ?? 0,
      fraudTransactions: fraudOf.get(id) ?? 0,
      via,
    };
  };

  // A link's value is held by the linked person even when the index does not say so (a counterparty).
  for (const l of links)
    for (const v of l.via) {
      const key = keyOf(v.kind, v.value);
      const set = holdersOf.get(key) ?? new Set<string>();
      set.add(l.userId);
      holdersOf.set(key, set);
    }
  // holders in the order of the people (the person first, then the links' order)
  const order = new Map(ids.map((id, i) => [id, i]));
  const identifiers = pairs.map((p) => ({
    kind: p.kind,
    value: p.value,
    userIds: [...(holdersOf.get(keyOf(p.kind, p.value)) ?? [])]
      .filter((id) => order.has(id))
      .sort((a, b) => order.get(a)! - order.get(b)!),
  }));

  return {
    userId,
    depth: query.depth,
    people: [
      person(userId, 0, []),
      ...links.map((l) =>
        person(
          l.userId,
          l.depth,
          l.via.map((v) => ({
            kind: v.kind,
            value: v.value,
            since: Date.parse(v.since),
            lastUsedAt: Date.parse(v.lastUsedAt),
            transactions: v.transactions,
          })),
        ),
      ),
    ],
    identifiers,
    capped: found.capped,
    fanOutCap,
    truncated: found.links.length > links.length,
    counterparties: parties.map((c) => {
      const u = c.userId ? byUser.get(c.userId) : undefined;
      return {
        ...c,
        name: u ? [u.firstName, u.lastName].filter(Boolean).join(" ") || null : null,
        status: u?.status ?? null,
        firstAt: Date.parse(c.firstAt),
        lastAt: Date.parse(c.lastAt),
      };
    }),
    counterpartiesTruncated: allParties.length > parties.length,
  };
}
