// Aggregates over the client's history, computed in PostgreSQL in one round trip per screening.
//
// - Window: (timestamp - window, timestamp], measured from the screened record's own timestamp.
//   The screened record is already stored (same DB transaction), so it counts itself, and a
//   resubmitted id is one row, counted once.
// - Group: rows whose groupBy path equals the screened record's value for that path. For a
//   transaction or event subject the value is read from the stored record itself; for user,
//   merchant and payment-instrument screenings `userId` / `merchantId` is the subject (the
//   instrument's userId), other paths are read from the request. A missing value matches nothing.
// - Empty group or window: count, countDistinct and sum are 0; avg, min and max are null, which
//   makes an ordering comparison in a condition an evaluation error (recorded, rule not triggered);
//   write `aggregates.x != null && aggregates.x > 10` to be explicit.
// - where filters in the SQL subset (see cel-sql.ts) run in the query; others fetch the window's
//   rows (at most FALLBACK_ROW_CAP, newest first) in the same query and filter them in JS. A window
//   with more rows than the cap makes the aggregate an error rather than a silently wrong number.
import type { Tx } from "@/lib/db";
import { matchesWhere, type TCompiledExpression } from "@/lib/rules/cel";
import { windowMs, type TAggregateDefinition, type TAggregateOver } from "@/lib/rules/schemas";
import { ROW_COLUMNS, sqlParams, translateWhere, type TSqlParams } from "@/lib/screening/cel-sql";

export const FALLBACK_ROW_CAP = 5_000;

export type TAggregateSubject = "transaction" | "user" | "merchant" | "paymentInstrument" | "event";

export type TAggregateRequest = { spec: TAggregateDefinition; where?: TCompiledExpression };
export type TAggregateValue = { value: number | null } | { error: string };

const TABLES: Record<TAggregateOver, string> = { transaction: `"transactions"`, event: `"events"` };

/** Identical aggregates of different rules are computed once. */
export function aggregateKey(spec: TAggregateDefinition): string {
  return JSON.stringify([
    spec.function,
    spec.over,
    spec.groupBy,
    spec.window,
    spec.field ?? null,
    spec.where ?? null,
  ]);
}

function segments(path: string): string[] {
  return path.split(".");
}

function getPath(value: unknown, path: string[]): unknown {
  let cur = value;
  for (const key of path) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** SQL text of a path on a history row (column when mapped, else the JSON body). */
function textExpr(over: TAggregateOver, alias: string, path: string, params: TSqlParams): string {
  const col = ROW_COLUMNS[over][path];
  if (col) return col.kind === "text" ? `${alias}.${col.sql}` : `${alias}.${col.sql}::text`;
  return `(${alias}."data" #>> ${params.add(segments(path), "text[]")})`;
}

const SAFE_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Like textExpr, but a JSON path is written as a literal so that an expression index such as
 * (clientId, (data #>> '{crypto,address}'), occurredAt) can serve the group lookup. Safe: the
 * path is an identifier chain (checked at import and again here), never a value.
 */
function groupExpr(over: TAggregateOver, alias: string, path: string, params: TSqlParams): string {
  if (ROW_COLUMNS[over][path]) return textExpr(over, alias, path, params);
  if (!SAFE_PATH.test(path)) throw new Error(`Invalid groupBy path '${path}'`);
  return `(${alias}."data" #>> '{${segments(path).join(",")}}')`;
}

function numericExpr(over: TAggregateOver, alias: string, path: string, params: TSqlParams): string {
  const col = ROW_COLUMNS[over][path];
  if (col?.kind === "numeric") return `${alias}.${col.sql}`;
  if (col) return "NULL::numeric";
  const j = `(${alias}."data" #> ${params.add(segments(path), "text[]")})`;
  return `(CASE WHEN jsonb_typeof(${j}) = 'number' THEN (${j})::numeric END)`;
}

/** The screened record's value for a groupBy path, as a SQL expression. */
function groupValueExpr(
  subject: TAggregateSubject,
  subjectId: string,
  path: string,
  variables: Record<string, unknown>,
  params: TSqlParams,
): string {
  if (subject === "transaction" || subject === "event") {
    return `(SELECT ${groupExpr(subject, "s", path, params)} FROM s)`;
  }
  let value: unknown;
  const record = variables[subject];
  if (subject === "user" && path === "userId") value = subjectId;
  else if (subject === "merchant" && path === "merchantId") value = subjectId;
  else if (subject === "paymentInstrument" && path === "card.cardFingerprint") {
    value = getPath(record, ["card", "fingerprint"]) ?? getPath(record, ["card", "cardFingerprint"]);
  } else value = getPath(record, segments(path));
  const text =
    typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : null;
  return params.add(text, "text");
}

function aggregateSql(
  fn: TAggregateDefinition["function"],
  over: TAggregateOver,
  field: string | undefined,
  params: TSqlParams,
): string {
  switch (fn) {
    case "count":
      return "count(*)::float8";
    case "countDistinct":
      return `count(DISTINCT ${textExpr(over, "t", field!, params)})::float8`;
    case "sum":
      return `coalesce(sum(${numericExpr(over, "t", field!, params)}), 0)::float8`;
    default:
      return `${fn}(${numericExpr(over, "t", field!, params)})::float8`;
  }
}

/** A history row as CEL sees it: the request body with the mapped columns' stored values. */
export function rowForCel(over: TAggregateOver, row: Record<string, unknown>): Record<string, unknown> {
  const data = (typeof row.data === "object" && row.data !== null ? row.data : {}) as Record<string, unknown>;
  for (const [path, col] of Object.entries(ROW_COLUMNS[over])) {
    const raw = row[col.sql.replaceAll('"', "")];
    const value = raw === null || raw === undefined ? undefined : col.kind === "numeric" ? Number(raw) : raw;
    const keys = segments(path);
    let target = data;
    for (const key of keys.slice(0, -1)) {
      const next = target[key];
      if (typeof next !== "object" || next === null) {
        if (value === undefined) break;
        target[key] = {};
      }
      target = target[key] as Record<string, unknown>;
    }
    const last = keys[keys.length - 1]!;
    if (value === undefined) delete target[last];
    else target[last] = value;
  }
  return data;
}

function computeInJs(
  spec: TAggregateDefinition,
  where: TCompiledExpression,
  rows: Record<string, unknown>[],
): number | null {
  const matching = rows.map((r) => rowForCel(spec.over, r)).filter((r) => matchesWhere(spec.over, where, r));
  if (spec.function === "count") return matching.length;
  const path = segments(spec.field!);
  const values = matching.map((r) => getPath(r, path));
  if (spec.function === "countDistinct") {
    const distinct = new Set<string>();
    for (const v of values) {
      if (v === undefined || v === null) continue;
      distinct.add(typeof v === "string" ? v : JSON.stringify(v));
    }
    return distinct.size;
  }
  const numbers = values.filter((v): v is number => typeof v === "number");
  if (spec.function === "sum") return numbers.reduce((a, b) => a + b, 0);
  if (numbers.length === 0) return null;
  if (spec.function === "avg") return numbers.reduce((a, b) => a + b, 0) / numbers.length;
  return spec.function === "min" ? Math.min(...numbers) : Math.max(...numbers);
}

const FALLBACK_COLUMNS: Record<TAggregateOver, string> = {
  transaction: `t."id", t."userId", t."merchantId", t."accountId", t."userDeviceId", t."cardFingerprint", t."status", t."amount", t."baseAmount", t."data"`,
  event: `t."id", t."type", t."method", t."userId", t."merchantId", t."data"`,
};

/**
 * Computes every requested aggregate (keyed by aggregateKey) in a single query. A failure of one
 * aggregate (fallback cap exceeded) is reported for that aggregate only.
 */
export async function computeAggregates(
  tx: Tx,
  {
    clientId,
    subject,
    subjectId,
    timestamp,
    variables,
    aggregates,
  }: {
    clientId: string;
    subject: TAggregateSubject;
    subjectId: string;
    timestamp: number;
    variables: Record<string, unknown>;
    aggregates: TAggregateRequest[];
  },
): Promise<Map<string, TAggregateValue>> {
  const results = new Map<string, TAggregateValue>();
  const unique = new Map<string, TAggregateRequest>();
  for (const a of aggregates) unique.set(aggregateKey(a.spec), a);
  if (unique.size === 0) return results;

  const params = sqlParams([clientId, subjectId, new Date(timestamp).toISOString()]);
  const columns: string[] = [];
  const plans: Array<{ key: string; request: TAggregateRequest; fallback: boolean }> = [];
  for (const [key, request] of unique) {
    const { spec } = request;
    const from = params.add(new Date(timestamp - windowMs(spec.window)).toISOString(), "timestamptz");
    const groupValue = groupValueExpr(subject, subjectId, spec.groupBy, variables, params);
    const base =
      `FROM ${TABLES[spec.over]} t WHERE t."clientId" = $1 ` +
      `AND ${groupExpr(spec.over, "t", spec.groupBy, params)} = ${groupValue} ` +
      `AND t."occurredAt" > ${from} AND t."occurredAt" <= $3::timestamptz`;
    const where = request.where ? translateWhere(request.where.ast, spec.over, "t", params) : "TRUE";
    if (where !== null) {
      columns.push(
        `(SELECT ${aggregateSql(spec.function, spec.over, spec.field, params)} ${base} AND ${where})`,
      );
      plans.push({ key, request, fallback: false });
    } else {
      columns.push(
        `(SELECT coalesce(json_agg(r), '[]'::json) FROM (SELECT ${FALLBACK_COLUMNS[spec.over]} ${base} ` +
          `ORDER BY t."occurredAt" DESC LIMIT ${FALLBACK_ROW_CAP + 1}) r)`,
      );
      plans.push({ key, request, fallback: true });
    }
  }

  const needsScreenedRow = subject === "transaction" || subject === "event";
  const sql =
    (needsScreenedRow
      ? `WITH s AS (SELECT * FROM ${TABLES[subject]} WHERE "clientId" = $1 AND "id" = $2) `
      : "") +
    `SELECT ${columns.map((c, i) => `${c} AS a${i}`).join(", ")}` +
    // keep $2 referenced when no CTE uses it, so parameter types stay inferable
    (needsScreenedRow ? "" : ` WHERE $2::text IS NOT NULL`);
  const rows = await tx.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params.values);
  const row = rows[0] ?? {};
  plans.forEach(({ key, request, fallback }, i) => {
    const raw = row[`a${i}`];
    if (!fallback) {
      results.set(key, { value: raw === null || raw === undefined ? null : Number(raw) });
      return;
    }
    const history = (typeof raw === "string" ? JSON.parse(raw) : (raw ?? [])) as Record<string, unknown>[];
    if (history.length > FALLBACK_ROW_CAP) {
      results.set(key, {
        error: `where filter is evaluated in JS and the window holds more than ${FALLBACK_ROW_CAP} rows; use the SQL subset (==, !=, <, <=, >, >=, in, &&, ||, !, has)`,
      });
      return;
    }
    results.set(key, { value: computeInJs(request.spec, request.where!, history) });
  });
  return results;
}
