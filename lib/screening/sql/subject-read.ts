import type { Pool, PoolClient } from "pg";
import {
  aggregateQuery,
  computeAggregates,
  type TAggregateRequest,
  type TAggregateValue,
} from "@/lib/screening/aggregates";
import type { TSqlParams } from "@/lib/screening/cel-sql";
import { Params, prepared, rawTx } from "@/lib/screening/sql/statements";
import type { TSubject } from "@/lib/screening/run-rules";
import { timeAggregateRead } from "@/lib/ops/metrics";

// The ONE read of a user, merchant or payment-instrument screening: the stored subject row and every
// aggregate of the rules, in a single SELECT (aggregateQuery's parts). For these subjects the
// aggregates read history only (transactions, events), never the screened row, so they can run before
// the write. The SELECT travels in the statement of the API key read when the route plans it
// (withClientRead in lib/http/with-client.ts: `subjectReadStatement` with the key's client id), and
// runs by itself otherwise (`readSubjectWithAggregates`).

export type TSubjectRead<TRow> = {
  /** The stored row (null when absent). */
  stored: TRow | null;
  values: Map<string, TAggregateValue>;
};

export type TSubjectReadSpec<TRow> = {
  clientId: string;
  subject: TSubject;
  subjectId: string;
  timestamp: number;
  requests: TAggregateRequest[];
  /**
   * A SELECT of at most one row (read back as its JSON form: select epoch ms rather than timestamps),
   * every tenant predicate on `clientSql`, its values added to `params`.
   */
  stored: (params: TSqlParams, clientSql: string) => string;
  /** The CEL variables the aggregates' group values are read from. */
  variables: (stored: TRow | null) => Record<string, unknown>;
  /** A request whose group value depends on the stored row: the row is read first (two statements). */
  dependsOnStored: (request: TAggregateRequest) => boolean;
};

/**
 * The read as one SELECT for a caller's statement (columns "stored", "a0", "a1", …), every tenant
 * predicate on `clientSql`; null when a group value depends on the stored row (then the row must be
 * read first: readSubjectWithAggregates).
 */
export function subjectReadStatement<TRow>(
  spec: TSubjectReadSpec<TRow>,
  params: TSqlParams,
  clientSql: string,
): { sql: string; result: (row: Record<string, unknown>) => TSubjectRead<TRow> } | null {
  if (spec.requests.some(spec.dependsOnStored)) return null;
  const stored = spec.stored(params, clientSql);
  const aggregates = aggregateQuery(params, {
    clientId: spec.clientId,
    clientSql,
    subject: spec.subject,
    subjectId: spec.subjectId,
    timestamp: spec.timestamp,
    variables: spec.variables(null),
    aggregates: spec.requests,
  });
  const sql = `${aggregates.ctes.length ? `WITH ${aggregates.ctes.join(",\n")} ` : ""}
    SELECT (SELECT to_jsonb(own) FROM (${stored}) own) AS "stored"
      ${aggregates.columns.map((col, i) => `, ${col} AS "a${i}"`).join("")}`;
  return {
    sql,
    result: (row) => ({
      stored: (row.stored as TRow | null | undefined) ?? null,
      values: aggregates.read(row),
    }),
  };
}

/** The read by itself: one statement, or two when a group value depends on the stored row. */
export async function readSubjectWithAggregates<TRow>(
  db: Pool | PoolClient,
  spec: TSubjectReadSpec<TRow>,
): Promise<TSubjectRead<TRow>> {
  const p = new Params();
  const c = p.add(spec.clientId, "text");
  const one = subjectReadStatement(spec, p, c);
  if (one)
    return one.result((await timeAggregateRead(() => db.query(prepared(one.sql, p.values)))).rows[0] ?? {});
  const q = new Params();
  const storedSql = spec.stored(q, q.add(spec.clientId, "text"));
  const stored =
    ((await db.query(`SELECT to_jsonb(own) AS "stored" FROM (${storedSql}) own`, q.values)).rows[0]
      ?.stored as TRow | undefined) ?? null;
  const values = await computeAggregates(rawTx(db), {
    clientId: spec.clientId,
    subject: spec.subject,
    subjectId: spec.subjectId,
    timestamp: spec.timestamp,
    variables: spec.variables(stored),
    aggregates: spec.requests,
  });
  return { stored, values };
}
