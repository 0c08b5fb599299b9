import type { Pool } from "pg";
import type { TKeyedRead } from "@/lib/auth/api-keys";
import type { TClientContext } from "@/lib/clients/client-context";
import { pgPool } from "@/lib/db";
import type { TEvent } from "@/lib/events/schemas";
import { aggregateQuery, type TAggregateValue } from "@/lib/screening/aggregates";
import type { TSqlParams } from "@/lib/screening/cel-sql";
import { assessment, type TRiskAssessment } from "@/lib/screening/assessment";
import {
  screeningConfig,
  type TScreeningConfig,
  type TScreeningRequest,
} from "@/lib/screening/screening-config";
import { decide } from "@/lib/screening/decide";
import { decidedWrite } from "@/lib/screening/sql/decision-write";
import {
  inlinePartyCtes,
  merchantHashColumn,
  partyVariables,
  type TInlineParties,
  type TPartyRead,
} from "@/lib/screening/sql/inline-parties";
import { abortUnlessWritten, commitWrite, retryOnConflict } from "@/lib/screening/sql/guarded-write";
import { Params, prepared } from "@/lib/screening/sql/statements";
import { planAggregates } from "@/lib/screening/run-rules";
import { timeAggregateRead } from "@/lib/ops/metrics";

// POST /v1/event in raw SQL (README.md here). With eventRules: ONE read (the stored user and merchant and
// every aggregate, the event taking part as a virtual row), the rules in memory, ONE write statement
// (event upsert with its outcome, device, identifiers, decision, event.screened webhook rows), atomic
// without BEGIN/COMMIT. Without eventRules: the write alone. An inline user or merchant is read with
// the rest (a read of its own without eventRules), merged in memory and upserted by guarded CTEs of
// the write (sql/inline-parties.ts): the rules see the parties as the upserts leave them.

type TReadRow = TPartyRead & Record<string, unknown>;

type TAnswer = TRiskAssessment | { id: string; status: "success" };

/** The read of an event screening as it travels with the API key read, with the time it was planned at. */
export type TEventPrefetched = { now: number; row: TReadRow; values: Map<string, TAggregateValue> };

/**
 * The read planned for the client the key resolved to last time (withClientRead); null without
 * eventRules (no read, or an inline party's read of its own).
 */
export async function plannedEventRead(
  guess: TClientContext,
  body: TEvent,
): Promise<{
  build: TKeyedRead["build"];
  result: (row: Record<string, unknown>) => TEventPrefetched;
} | null> {
  if (!guess.features.has("eventRules")) return null;
  const config = await screeningConfig(pgPool(), guess);
  const now = Date.now();
  let statement: ReturnType<typeof eventReadStatement> | undefined;
  return {
    build: (params, clientSql) => {
      statement = eventReadStatement(
        config,
        guess.id,
        body,
        eventColumns(body, new Date(now)),
        params,
        clientSql,
      );
      return statement.sql;
    },
    result: (row) => ({ now, row: row as TReadRow, values: statement!.values(row) }),
  };
}

export async function screenEvent({
  client,
  body,
  prefetched = null,
}: TScreeningRequest<TEvent, TEventPrefetched>): Promise<TAnswer> {
  const pool = pgPool();
  const config = client.features.has("eventRules") ? await screeningConfig(pool, client) : null;
  // the first attempt uses the read that travelled with the key; a retried write reads again
  // (an inline party changed since the read, two first submissions of one inline user or merchant
  // raced, a deadlock: the write was refused as a whole and it runs again from the read)
  const first = config ? prefetched : null;
  return retryOnConflict((attempt) =>
    screenOnce(pool, { clientId: client.id, config, body, prefetched: attempt === 1 ? first : null }),
  );
}

/** The event's columns as the write stores them (and as its virtual row in the aggregates). */
function eventColumns(body: TEvent, now: Date) {
  const userId = body.userId ?? body.user?.id ?? null;
  const merchantId = body.merchantId ?? body.merchant?.id ?? null;
  const occurredAt = new Date(body.timestamp ?? now.getTime());
  const record = { ...body, timestamp: occurredAt.getTime() };
  const columns: Record<string, [unknown, string]> = {
    type: [body.type, "text"],
    method: [body.method ?? null, "text"],
    userId: [userId, "text"],
    merchantId: [merchantId, "text"],
    occurredAt: [occurredAt.toISOString(), "timestamptz"],
    data: [JSON.stringify(record), "jsonb"],
  };
  return { userId, merchantId, occurredAt, record, columns };
}

/**
 * The ONE read of an event screening: stored user and merchant, every aggregate (the event as a
 * virtual row), every tenant predicate on `clientSql` (the API key's client id when it travels with
 * the key read).
 */
function eventReadStatement(
  config: TScreeningConfig,
  clientId: string,
  body: TEvent,
  { userId, merchantId, occurredAt, record, columns }: ReturnType<typeof eventColumns>,
  params: TSqlParams,
  clientSql: string,
) {
  const timestamp = occurredAt.getTime();
  const variables: Record<string, unknown> = { event: record };
  const rules = config.rules.get("event") ?? [];
  const plan = planAggregates(rules, "event");
  const aggregates = aggregateQuery(params, {
    clientId,
    clientSql,
    subject: "event",
    subjectId: body.id,
    timestamp,
    variables,
    aggregates: plan.requests,
    screened: {
      over: "event",
      row: {
        clientId,
        id: body.id,
        ...Object.fromEntries(Object.entries(columns).map(([k, [v]]) => [k, v])),
        data: record,
      },
    },
  });
  const sql = `${aggregates.ctes.length ? `WITH ${aggregates.ctes.join(",\n")} ` : ""}
     SELECT u."data" AS "userData", u."status" AS "userStatus", u."createdAt" AS "userCreatedAt",
       m."data" AS "merchantData", m."status" AS "merchantStatus", m."createdAt" AS "merchantCreatedAt"
       ${merchantHashColumn({ user: body.user, merchant: body.merchant })}${aggregates.columns.map((col, i) => `, ${col} AS "a${i}"`).join("")}
     FROM (SELECT 1) one
     LEFT JOIN "users" u ON u."clientId" = ${clientSql} AND u."id" = ${params.add(userId, "text")}
     LEFT JOIN "merchants" m ON m."clientId" = ${clientSql} AND m."id" = ${params.add(merchantId, "text")}`;
  return {
    sql,
    timestamp,
    variables,
    rules,
    plan,
    values: (row: Record<string, unknown>) => aggregates.read(row),
  };
}

async function screenOnce(
  db: Pool,
  {
    clientId,
    config,
    body,
    prefetched = null,
  }: {
    clientId: string;
    config: TScreeningConfig | null;
    body: TEvent;
    prefetched?: TEventPrefetched | null;
  },
): Promise<TAnswer> {
  const now = prefetched ? new Date(prefetched.now) : new Date();
  const event = eventColumns(body, now);
  const { columns } = event;

  const p = new Params();
  let answer: TAnswer = { id: body.id, status: "success" };
  let outcome: Array<[string, string]> = [
    ["riskLevel", "NULL"],
    ["recommendedAction", "NULL"],
    ["assessedAt", "NULL"],
    ["decisionId", "NULL"],
  ];
  const ctes: string[] = [];
  const inline: TInlineParties = { user: body.user, merchant: body.merchant };
  let read: TReadRow | null = null;
  if (!config && (body.user || body.merchant))
    read = await readParties(db, { clientId, userId: event.userId, merchantId: event.merchantId, inline });
  if (config) {
    // The read: stored user and merchant, every aggregate (the event as a virtual row).
    const started = performance.now();
    const r = new Params();
    const statement = eventReadStatement(config, clientId, body, event, r, r.add(clientId, "text"));
    const { timestamp, variables, rules, plan } = statement;
    read =
      prefetched?.row ??
      (await timeAggregateRead(() => db.query<TReadRow>(prepared(statement.sql, r.values)))).rows[0]!;
    // an inline party as its upsert below will leave it
    const { user, merchant } = partyVariables(read, inline);
    if (user) variables.user = user;
    if (merchant) variables.merchant = merchant;
    const decided = await decide(db, {
      clientId,
      subject: "event",
      subjectId: body.id,
      variables,
      rules,
      lists: config.lists,
      values: prefetched?.values ?? statement.values(read),
      compileErrors: plan.compileErrors,
    });
    const assessed = assessment(body.id, decided, now);
    answer = assessed;
    const write = decidedWrite(p, {
      clientId,
      subject: "event",
      subjectId: body.id,
      decided,
      variables,
      timestamp,
      started,
      answer: assessed,
      assessedAt: now,
      subscriptions: config.subscriptions,
      event: "event.screened",
      subjectRow: "columns",
    });
    ctes.push(...write.ctes);
    outcome = write.outcome;
  }

  // The write: one statement, all or nothing; the inline parties' upserts (with the user's device and
  // identifiers) guarded by what was read.
  const parties = read
    ? inlinePartyCtes(p, { clientId, inline, source: "event", read, now })
    : { ctes: [], written: [] };
  ctes.unshift(...parties.ctes);
  const c = p.add(clientId, "text");
  const fields: Array<[string, string]> = [
    ...Object.entries(columns).map(([k, [v, cast]]): [string, string] => [k, p.add(v, cast)]),
    ...outcome,
  ];
  ctes.push(`e AS (INSERT INTO "events" ("clientId", "id", ${fields.map(([k]) => `"${k}"`).join(", ")})
     VALUES (${c}, ${p.add(body.id, "text")}, ${fields.map(([, v]) => v).join(", ")})
     ON CONFLICT ("clientId", "id") DO UPDATE SET ${fields.map(([k]) => `"${k}" = EXCLUDED."${k}"`).join(", ")})`);
  await commitWrite(db, p, `WITH ${ctes.join(",\n")} ${abortUnlessWritten(parties.written)}`);
  return answer;
}

/** The read of an inline user's or merchant's stored row when no rule needs a read (no eventRules). */
async function readParties(
  db: Pool,
  {
    clientId,
    userId,
    merchantId,
    inline,
  }: { clientId: string; userId: string | null; merchantId: string | null; inline: TInlineParties },
): Promise<TReadRow> {
  const { rows } = await db.query<TReadRow>(
    `SELECT u."data" AS "userData", u."status" AS "userStatus", u."createdAt" AS "userCreatedAt",
       m."data" AS "merchantData", m."status" AS "merchantStatus", m."createdAt" AS "merchantCreatedAt"
       ${merchantHashColumn(inline)}
     FROM (SELECT 1) one
     LEFT JOIN "users" u ON u."clientId" = $1::text AND u."id" = $2::text
     LEFT JOIN "merchants" m ON m."clientId" = $1::text AND m."id" = $3::text`,
    [clientId, userId, merchantId],
  );
  return rows[0]!;
}
