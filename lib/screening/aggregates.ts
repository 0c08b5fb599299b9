// Aggregates over the client's history, computed in PostgreSQL in one round trip per screening.
//
// - Window: (timestamp - window, timestamp], measured from the screened record's own timestamp.
//   The screened record is already stored (same DB transaction), or travels as a virtual row
//   (`screened`: the stored history minus its id, plus the row), so it counts itself, and a
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
// - Time buckets: count, sum, avg, min and max of a transaction aggregate grouped by userId,
//   merchantId, accountId, userDeviceId or card.cardFingerprint, with no where filter and a field of
//   amount or baseAmount (lib/rules/aggregate-cost.ts), read the table transaction_buckets, kept
//   exact by triggers on every write (migration 20261127010000_transaction_buckets): day buckets for
//   the whole days of the window; on its two ragged days, hour buckets when the group's day is dense
//   (48 transactions or more), else its raw rows (fewer than 48); on a dense day's ragged hours,
//   minute buckets when the hour is dense (60 or more), else its raw rows; and the raw rows of the
//   ragged minutes; each ragged part read as it is or as its bucket less the rest, whichever holds less
//   time before the present (the window's last day: its bucket less the rows after the window's end). So
//   their cost does not grow with the window or the history (bucketedAggregate).
// - Distinct values per day: a transaction countDistinct with no where filter, grouped by one of those five
//   paths and counting another (distinctPlan), reads the table transaction_distinct_values (migration
//   20261127060200_transaction_distinct): the values of each busy whole UTC day of the window (20261128160000),
//   the raw rows of its two ragged days, of its quiet days and of the days before its spec's `since`
//   (distinctAggregate). Its cost grows with the distinct values per day, not with the transactions.
// - Every other aggregate reads the raw rows of its window.
import type { Tx } from "@/lib/db";
import { matchesWhere, type TCompiledExpression } from "@/lib/rules/cel";
import { RuleBudgetError, withinBudget } from "@/lib/rules/evaluation-budget";
import { BUCKET_FIELDS, bucketPlan, distinctPlan } from "@/lib/rules/aggregate-cost";
import { windowMs, type TAggregateDefinition, type TAggregateOver } from "@/lib/rules/schemas";
import { ROW_COLUMNS, sqlParams, translateWhere, type TSqlParams } from "@/lib/screening/cel-sql";
import { timeAggregateRead } from "@/lib/ops/metrics";

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
  path: string,
  params: TInputParams<TAggregateInput>,
): string {
  if (subject === "transaction" || subject === "event") {
    return `(SELECT ${groupExpr(subject, "s", path, params)} FROM s)`;
  }
  if (subject === "user" && path === "userId") return params.input((i) => i.subjectId, "text");
  if (subject === "merchant" && path === "merchantId") return params.input((i) => i.subjectId, "text");
  if (subject === "paymentInstrument" && path === "card.cardFingerprint") {
    return params.input((i) => {
      const record = i.variables[subject];
      return textValue(
        getPath(record, ["card", "fingerprint"]) ?? getPath(record, ["card", "cardFingerprint"]),
      );
    }, "text");
  }
  const keys = segments(path);
  return params.input((i) => textValue(getPath(i.variables[subject], keys)), "text");
}

/**
 * A bucketed aggregate: the group's totals in the window from transaction_window_totals (migration
 * 20261127040000: day buckets for the whole days; on each ragged day, hour buckets if the group's day is dense,
 * else its raw rows; on each ragged hour of a dense day, minute buckets if the hour is dense, else its raw
 * rows; the raw rows of the ragged minutes; migration 20261127090000: each ragged part as it is or as its
 * bucket less the rest, whichever holds less time before the present; migration 20261207120000: a count's raw
 * rows counted from the group's index alone). With the screened record as a virtual row, its stored row (a
 * resubmission) is taken out of the totals and the virtual row put in. Min and max read the raw window when
 * an extreme is unknown or the stored row was in the window.
 */
function bucketedAggregate(
  params: TInputParams<TAggregateInput>,
  args: {
    spec: TAggregateDefinition;
    plan: NonNullable<ReturnType<typeof bucketPlan>>;
    c: string;
    groupValue: string;
    from: () => string;
    to: () => string;
    /** the CTE of the screened id's stored row, when the screened record is a virtual row of this table */
    stored: (() => string) | null;
    rawSource: string;
  },
): string {
  const { spec, plan, c, groupValue, from, to, stored, rawSource } = args;
  const value = `t.${plan.field.column}`;
  const group = groupExpr("transaction", "t", spec.groupBy, params);
  // a count asks for the count only (NULL): its raw rows are then counted from the group's index alone
  const base =
    spec.function === "count" ? "NULL::boolean" : plan.field === BUCKET_FIELDS.baseAmount ? "true" : "false";
  // min and max cannot take rows out of a bucket: with them, the window's last minute is read from its rows
  const extremes = spec.function === "min" || spec.function === "max" ? "true" : "false";
  const totals = `"transaction_window_totals"(${c}, ${plan.dim}::smallint, ${groupValue}, ${base}, ${extremes}, ${from()}, ${to()})`;
  // the virtual row (added) and the stored row of the same id (taken out), where in the window and the group
  const inWindow = `t."clientId" = ${c} AND ${group} = ${groupValue} AND t."occurredAt" > ${from()} AND t."occurredAt" <= ${to()}`;
  const row = (source: string) =>
    `(SELECT count(*) AS n, count(${value}) AS v, sum(${value}) AS s, min(${value}) AS mn, max(${value}) AS mx
      FROM ${source} t WHERE ${inWindow})`;
  const corrected = stored !== null;
  const rows = corrected
    ? `FROM ${totals} w CROSS JOIN LATERAL ${row("s")} p CROSS JOIN LATERAL ${row(stored())} q`
    : `FROM ${totals} w`;
  const plus = (col: "n" | "v" | "s") =>
    corrected
      ? `(coalesce(w.${col}, 0) + coalesce(p.${col}, 0) - coalesce(q.${col}, 0))`
      : `coalesce(w.${col}, 0)`;
  switch (spec.function) {
    case "count":
      return `(SELECT ${plus("n")}::float8 ${rows})`;
    case "sum":
      return `(SELECT ${plus("s")}::float8 ${rows})`;
    case "avg":
      return `(SELECT (${plus("s")} / nullif(${plus("v")}, 0))::float8 ${rows})`;
    default: {
      // unknown extremes (a removed extreme, or the stored row in the window): the raw window
      const fn = spec.function;
      const exact = `(SELECT ${fn}(${numericExpr("transaction", "t", spec.field!, params)})::float8 FROM ${rawSource} t
        WHERE ${inWindow})`;
      const known = corrected
        ? `${fn === "min" ? "LEAST" : "GREATEST"}(w.${fn === "min" ? "mn" : "mx"}, p.${fn === "min" ? "mn" : "mx"})`
        : `w.${fn === "min" ? "mn" : "mx"}`;
      return `(SELECT CASE WHEN w.stale${corrected ? " OR q.v > 0" : ""} THEN ${exact} ELSE ${known}::float8 END ${rows})`;
    }
  }
}

/**
 * An exact countDistinct from transaction_window_values (migration 20261127060200): the group's values in the
 * window with their row counts. With the screened record as a virtual row, a value held only by the stored row
 * of the same id (a resubmission) is taken out, and the virtual row's value put in.
 */
function distinctAggregate(
  params: TInputParams<TAggregateInput>,
  args: {
    spec: TAggregateDefinition;
    plan: NonNullable<ReturnType<typeof distinctPlan>>;
    c: string;
    groupValue: string;
    from: () => string;
    to: () => string;
    stored: (() => string) | null;
  },
): string {
  const { spec, plan, c, groupValue, from, to, stored } = args;
  const value = textExpr("transaction", "t", spec.field!, params);
  const group = groupExpr("transaction", "t", spec.groupBy, params);
  const values = `"transaction_window_values"(${c}, ${plan.dim}::smallint, ${groupValue}, ${plan.field}::smallint, ${from()}, ${to()})`;
  if (stored === null) return `(SELECT count(*)::float8 FROM ${values} w)`;
  const inWindow = `t."clientId" = ${c} AND ${group} = ${groupValue} AND t."occurredAt" > ${from()} AND t."occurredAt" <= ${to()}`;
  return `(SELECT count(*)::float8 FROM (
      SELECT w."value" FROM ${values} w
        LEFT JOIN (SELECT ${value} AS v FROM ${stored()} t WHERE ${inWindow}) q ON q.v = w."value"
       WHERE w."n" > (q.v IS NOT NULL)::int
      UNION
      SELECT ${value} FROM s t WHERE ${inWindow} AND ${value} IS NOT NULL) x)`;
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
 * The screened record as a virtual row: its column values exactly as the write will store them
 * (keys are the table's column names; dates as ISO strings, decimals as strings or numbers, `data`
 * as the object). With it the record does not need to be stored before its aggregates are read:
 * the history of `over` is the stored rows minus the stored row of the same id, plus this row, so
 * the record counts itself once and a resubmitted id counts once, with its new values.
 */
export type TScreenedRow = { over: TAggregateOver; row: Record<string, unknown> };

export type TAggregateArgs = {
  clientId: string;
  subject: TAggregateSubject;
  subjectId: string;
  timestamp: number;
  variables: Record<string, unknown>;
  aggregates: TAggregateRequest[];
  /** The screened record, not stored yet (see TScreenedRow); without it a transaction or event
   * subject is read from its stored row. */
  screened?: TScreenedRow;
};

/** What an aggregate read's parameter values are computed from: the screened record and its variables. */
export type TAggregateInput = Pick<TAggregateArgs, "clientId" | "subjectId" | "timestamp" | "variables"> & {
  /** The screened record as a virtual row (TScreenedRow's `row`); only read when the shape has one. */
  screenedRow?: Record<string, unknown>;
};

/**
 * Parameters of a statement whose text depends only on its shape: `add` takes a constant (a rule's
 * literal, a JSON path), `input` a value read from the request (TAggregateInput). A cached template
 * records `input` as a slot filled per request; an immediate build reads it at once.
 */
export type TInputParams<I> = TSqlParams & { input: (get: (input: I) => unknown, cast: string) => string };

/** What the text of an aggregate read depends on (besides the caller's parameters before it). */
export type TAggregateShape = {
  subject: TAggregateSubject;
  aggregates: TAggregateRequest[];
  /** The table of the screened record read as a virtual row (`screened`), if any. */
  screenedOver?: TAggregateOver;
  /** SQL of the client id in the caller's statement (e.g. the API key's, read by the same statement) */
  clientSql?: string;
};

function textValue(value: unknown): string | null {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : null;
}

/**
 * The aggregates of one screening as parts of a statement the caller builds (so that they can
 * travel with other reads in one round trip): CTEs (without WITH; names `s`, may be empty), one
 * select-list expression per distinct aggregate (`columns`, to be selected AS `${prefix}${i}`), and
 * `read` turning the result row back into values. The text depends on the shape only: a caller can
 * build it once per client configuration and fill the values per request (TInputParams).
 */
export function aggregateTemplate(
  params: TInputParams<TAggregateInput>,
  { subject, aggregates, screenedOver, clientSql }: TAggregateShape,
): {
  ctes: string[];
  columns: string[];
  read: (row: Record<string, unknown>, prefix?: string) => Map<string, TAggregateValue>;
} {
  const unique = new Map<string, TAggregateRequest>();
  for (const a of aggregates) unique.set(aggregateKey(a.spec), a);
  const plans: Array<{ key: string; request: TAggregateRequest; fallback: boolean }> = [];
  const columns: string[] = [];
  const ctes: string[] = [];
  if (unique.size > 0) {
    const c = clientSql ?? params.input((i) => i.clientId, "text");
    // added on first use, like screenedId: a bucketed count or sum never reads the window's bounds
    let toSql: string | null = null;
    const to = () => (toSql ??= params.input((i) => new Date(i.timestamp).toISOString(), "timestamptz"));
    const needsScreenedRow = subject === "transaction" || subject === "event";
    // added on first use: a parameter the statement never references has no type (when no aggregate
    // reads the screened record's own table, e.g. an event screening counting transactions only)
    let screenedIdSql: string | null = null;
    const screenedId = () => (screenedIdSql ??= params.input((i) => i.subjectId, "text"));
    // the stored row of the screened id (a resubmission), read once for every bucketed aggregate
    let storedRow: string | null = null;
    const stored = () => {
      if (!storedRow) {
        storedRow = "so";
        ctes.push(`so AS MATERIALIZED (SELECT * FROM "transaction_stored"(${c}, ${screenedId()}))`);
      }
      return storedRow;
    };
    if (screenedOver) {
      ctes.push(
        `s AS (SELECT * FROM jsonb_populate_record(NULL::${TABLES[screenedOver]}, ${params.input((i) => JSON.stringify(i.screenedRow), "jsonb")}))`,
      );
    } else if (needsScreenedRow) {
      ctes.push(
        `s AS (SELECT * FROM ${TABLES[subject as TAggregateOver]} WHERE "clientId" = ${c} AND "id" = ${params.input((i) => i.subjectId, "text")})`,
      );
    }
    for (const [key, request] of unique) {
      const { spec } = request;
      const window = windowMs(spec.window);
      let fromSql: string | null = null;
      const from = () =>
        (fromSql ??= params.input((i) => new Date(i.timestamp - window).toISOString(), "timestamptz"));
      const groupValue = groupValueExpr(subject, spec.groupBy, params);
      // the stored history, or (screened record of this table) the history with the virtual row
      const source =
        screenedOver === spec.over
          ? `(SELECT * FROM ${TABLES[spec.over]} WHERE "id" <> ${screenedId()} UNION ALL SELECT * FROM s)`
          : TABLES[spec.over];
      const bucketed = request.where ? null : bucketPlan(spec);
      if (bucketed) {
        columns.push(
          bucketedAggregate(params, {
            spec,
            plan: bucketed,
            c,
            groupValue,
            from,
            to,
            stored: screenedOver === spec.over ? stored : null,
            rawSource: source,
          }),
        );
        plans.push({ key, request, fallback: false });
        continue;
      }
      const distinct = request.where ? null : distinctPlan(spec);
      if (distinct) {
        columns.push(
          distinctAggregate(params, {
            spec,
            plan: distinct,
            c,
            groupValue,
            from,
            to,
            stored: screenedOver === spec.over ? stored : null,
          }),
        );
        plans.push({ key, request, fallback: false });
        continue;
      }
      const base =
        `FROM ${source} t WHERE t."clientId" = ${c} ` +
        `AND ${groupExpr(spec.over, "t", spec.groupBy, params)} = ${groupValue} ` +
        `AND t."occurredAt" > ${from()} AND t."occurredAt" <= ${to()}`;
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
  }
  const read = (row: Record<string, unknown>, prefix = "a") => {
    const results = new Map<string, TAggregateValue>();
    plans.forEach(({ key, request, fallback }, i) => {
      const raw = row[`${prefix}${i}`];
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
      // one budget for the whole window: a where filter is one evaluation per row
      try {
        results.set(key, { value: withinBudget(() => computeInJs(request.spec, request.where!, history)) });
      } catch (err) {
        if (!(err instanceof RuleBudgetError)) throw err;
        results.set(key, { error: `where: ${err.message}` });
      }
    });
    return results;
  };
  return { ctes, columns, read };
}

/** aggregateTemplate built for one request: every value added to `params` at once. */
export function aggregateQuery(
  params: TSqlParams,
  args: TAggregateArgs & {
    /** SQL of the client id in the caller's statement (e.g. the API key's, read by the same statement) */
    clientSql?: string;
  },
): ReturnType<typeof aggregateTemplate> {
  const input: TAggregateInput = { ...args, screenedRow: args.screened?.row };
  return aggregateTemplate(
    {
      values: params.values,
      add: (value, cast) => params.add(value, cast),
      input: (get, cast) => params.add(get(input), cast),
    },
    {
      subject: args.subject,
      aggregates: args.aggregates,
      screenedOver: args.screened?.over,
      clientSql: args.clientSql,
    },
  );
}

/**
 * Computes every requested aggregate (keyed by aggregateKey) in a single query. A failure of one
 * aggregate (fallback cap exceeded) is reported for that aggregate only.
 */
export async function computeAggregates(tx: Tx, args: TAggregateArgs): Promise<Map<string, TAggregateValue>> {
  const params = sqlParams();
  const { ctes, columns, read } = aggregateQuery(params, args);
  if (columns.length === 0) return new Map();
  const sql =
    (ctes.length ? `WITH ${ctes.join(", ")} ` : "") +
    `SELECT ${columns.map((c, i) => `${c} AS a${i}`).join(", ")}`;
  const rows = await timeAggregateRead(() =>
    tx.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params.values),
  );
  return read(rows[0] ?? {});
}
