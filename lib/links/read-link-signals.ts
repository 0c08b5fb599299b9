// The values of links.* for one screening, in ONE statement (docs/decisions.md §14): counts per kind,
// windowed counts, linked users now blocked and those with a transaction confirmed as fraud.
//
// The screened record takes part before it is stored: its identifiers (`current`) count as the
// subject's, used at the record's timestamp, exactly as aggregates count the record itself. Windows
// run back from that timestamp; a link counts in a window when both users used the value within it.
// A value held by more users than the client's fan-out cap (the subject included) links nobody.
import type { Tx } from "@/lib/db";
import { windowMs } from "@/lib/rules/schemas";
import { callKey, type TLinkRequests, type TLinkValues } from "@/lib/links/link-signals";
import { IDENTIFIER_KINDS, normalizeIdentifier, type TIdentifier } from "@/lib/users/index-identifiers";

// A value's last use: its latest transaction (by the transaction's own time), or, never used by a
// transaction, when it was indexed from a user record or device.
export const LAST_SEEN = (i: string, u: string) => `coalesce(${u}."lastUsedAt", ${i}."createdAt")`;

const USES = (i: string, u: string) =>
  `LEFT JOIN "user_identifier_uses" ${u} ON ${u}."clientId" = ${i}."clientId" AND ${u}."kind" = ${i}."kind"
     AND ${u}."value" = ${i}."value" AND ${u}."userId" = ${i}."userId"`;

const statements = new Map<string, string>();

/** The statement's text depends only on which parts are requested (a handful of shapes). */
function statement(withWindows: boolean, blocked: boolean, fraud: boolean): string {
  const key = `${withWindows}${blocked}${fraud}`;
  let sql = statements.get(key);
  if (sql) return sql;
  sql = `WITH cap AS (SELECT coalesce((SELECT "linkFanOutCap" FROM "clients" WHERE "id" = $1), 50) AS "n"),
    mine AS (
      SELECT i."kind", i."value", ${LAST_SEEN("i", "u")} AS "seen"
      FROM "user_identifiers" i ${USES("i", "u")}
      WHERE i."clientId" = $1 AND i."userId" = $2 AND i."kind" = ANY($6::text[])
      UNION ALL
      SELECT c."kind", c."value", $5::timestamptz FROM unnest($3::text[], $4::text[]) AS c("kind", "value")),
    v AS (SELECT "kind", "value", max("seen") AS "seen" FROM mine GROUP BY "kind", "value"),
    vc AS (
      SELECT v.*, (SELECT count(*) FROM (SELECT 1 FROM "user_identifiers" h
          WHERE h."clientId" = $1 AND h."kind" = v."kind" AND h."value" = v."value" AND h."userId" <> $2
          LIMIT (SELECT "n" FROM cap)) x) AS "others"
      FROM v),
    l AS (
      SELECT o."userId", vc."kind", vc."seen" AS "mine", ${LAST_SEEN("o", "ou")} AS "theirs"
      FROM vc JOIN "user_identifiers" o ON o."clientId" = $1 AND o."kind" = vc."kind" AND o."value" = vc."value"
        AND o."userId" <> $2
      ${USES("o", "ou")}
      WHERE vc."others" + 1 <= (SELECT "n" FROM cap))${blocked || fraud ? `,\n    lu AS (SELECT DISTINCT "userId" FROM l)` : ""}
    SELECT
      (SELECT coalesce(jsonb_object_agg("kind", "n"), '{}'::jsonb)
         FROM (SELECT "kind", count(DISTINCT "userId") AS "n" FROM l GROUP BY "kind") k) AS "counts"${
           withWindows
             ? `,
      (SELECT coalesce(jsonb_agg((SELECT count(DISTINCT l."userId") FROM l WHERE l."kind" = w."kind"
           AND l."mine" > $5::timestamptz - w."ms" * interval '1 millisecond'
           AND l."theirs" > $5::timestamptz - w."ms" * interval '1 millisecond') ORDER BY w."i"), '[]'::jsonb)
         FROM unnest($7::text[], $8::float8[]) WITH ORDINALITY AS w("kind", "ms", "i")) AS "windowed"`
             : ""
         }${
           blocked
             ? `,
      (SELECT count(*) FROM lu JOIN "users" s ON s."clientId" = $1 AND s."id" = lu."userId"
         WHERE s."status" = 'blocked')::int AS "blocked"`
             : ""
         }${
           fraud
             ? `,
      (SELECT count(*) FROM lu WHERE EXISTS (SELECT 1 FROM "transactions" t
         WHERE t."clientId" = $1 AND t."userId" = lu."userId" AND t."isFraud"))::int AS "fraud"`
             : ""
         }`;
  statements.set(key, sql);
  return sql;
}

/**
 * Reads what `requests` names for `userId` (null: no user, every value 0) in one statement.
 * `current`: the screened record's identifiers of the user, not stored yet.
 */
export async function readLinkSignals(
  db: Pick<Tx, "$queryRawUnsafe">,
  {
    clientId,
    userId,
    current,
    timestamp,
    requests,
  }: {
    clientId: string;
    userId: string | null;
    current: readonly TIdentifier[];
    timestamp: number;
    requests: TLinkRequests;
  },
): Promise<TLinkValues> {
  const values = new Map<string, number>();
  const kinds = new Set([...requests.kinds, ...requests.windows.map((w) => w.kind)]);
  const depthOne = requests.blocked || requests.fraud;
  if (userId === null) {
    for (const kind of requests.kinds) values.set(callKey("count", [kind]), 0);
    for (const w of requests.windows) values.set(callKey("count", [w.kind, w.window]), 0);
    if (requests.blocked) values.set(callKey("blockedCount", []), 0);
    if (requests.fraud) values.set(callKey("fraudCount", []), 0);
    return values;
  }
  // blocked and fraud count linked users through every kind
  const readKinds: string[] = depthOne ? [...IDENTIFIER_KINDS] : [...kinds];
  const cur = current
    .filter((c) => readKinds.includes(c.kind))
    .map((c) => ({ kind: c.kind, value: normalizeIdentifier(c.kind, c.value) }))
    .filter((c) => c.value !== "");
  const withWindows = requests.windows.length > 0;
  const params: unknown[] = [
    clientId,
    userId,
    cur.map((c) => c.kind),
    cur.map((c) => c.value),
    new Date(timestamp),
    readKinds,
  ];
  if (withWindows)
    params.push(
      requests.windows.map((w) => w.kind),
      requests.windows.map((w) => windowMs(w.window)),
    );
  const rows = await db.$queryRawUnsafe<
    Array<{
      counts: Record<string, number | string>;
      windowed?: Array<number | string>;
      blocked?: number;
      fraud?: number;
    }>
  >(statement(withWindows, requests.blocked, requests.fraud), ...params);
  const row = rows[0]!;
  for (const kind of requests.kinds) values.set(callKey("count", [kind]), Number(row.counts[kind] ?? 0));
  requests.windows.forEach((w, i) =>
    values.set(callKey("count", [w.kind, w.window]), Number(row.windowed?.[i] ?? 0)),
  );
  if (requests.blocked) values.set(callKey("blockedCount", []), Number(row.blocked ?? 0));
  if (requests.fraud) values.set(callKey("fraudCount", []), Number(row.fraud ?? 0));
  return values;
}
