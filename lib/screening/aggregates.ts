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
//   ragged minutes. So their cost does not grow with the window or the history (bucketedAggregate).
//   Every other aggregate reads the raw rows of its window.
import type { Tx } from "@/lib/db";
import { matchesWhere, type TCompiledExpression } from "@/lib/rules/cel";
import { RuleBudgetError, withinBudget } from "@/lib/rules/evaluation-budget";
import { bucketPlan } from "@/lib/rules/aggregate-cost";
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

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
const ceilTo = (t: number, unit: number) => Math.ceil(t / unit) * unit;

/**
 * A part of a window within one UTC hour, [a, b) in ms: on a dense hour (minute buckets kept) the raw rows of
 * [a, ma) and [mb, b) (less than a minute each) and minute buckets starting in [ma, mb); on a sparse hour the
 * raw rows of [a, b). Empty ranges have equal bounds.
 */
export type THourPart = { hour: number; a: number; ma: number; mb: number; b: number };

/**
 * A part of a window within one UTC day, [lo, hi) in ms: on a dense day (hour buckets kept) hour buckets
 * starting in [hlo, hhi) and the two ragged hours `head` [lo, hlo) and `tail` [hhi, hi); on a sparse day the
 * raw rows of [lo, hi).
 */
export type TDayPiece = {
  day: number;
  lo: number;
  hlo: number;
  hhi: number;
  hi: number;
  head: THourPart;
  tail: THourPart;
};

function hourPart(a: number, b: number): THourPart {
  const hour = floorTo(a, HOUR);
  if (a >= b) return { hour, a: b, ma: b, mb: b, b };
  const ma = ceilTo(a, MINUTE);
  const mb = floorTo(b, MINUTE);
  if (ma >= mb) return { hour, a, ma: b, mb: b, b };
  return { hour, a, ma, mb, b };
}

function dayPiece(lo: number, hi: number): TDayPiece {
  const day = floorTo(lo, DAY);
  if (lo >= hi) return { day, lo: hi, hlo: hi, hhi: hi, hi, head: hourPart(hi, hi), tail: hourPart(hi, hi) };
  const hlo = ceilTo(lo, HOUR);
  const hhi = floorTo(hi, HOUR);
  // within one hour: all of it is the head
  if (hlo > hhi) return { day, lo, hlo: hi, hhi: hi, hi, head: hourPart(lo, hi), tail: hourPart(hi, hi) };
  return { day, lo, hlo, hhi, hi, head: hourPart(lo, hlo), tail: hourPart(hhi, hi) };
}

/**
 * The window (from, to] (times in ms) cut for the buckets: day buckets starting in [d1, d2), and the two
 * ragged days at its ends (TDayPiece). A window within one day is all `head`.
 */
export function windowPieces(
  from: number,
  to: number,
): { d1: number; d2: number; head: TDayPiece; tail: TDayPiece } {
  const lo = from + 1;
  const hi = to + 1;
  const d1 = ceilTo(lo, DAY);
  const d2 = floorTo(hi, DAY);
  if (d1 > d2) return { d1: hi, d2: hi, head: dayPiece(lo, hi), tail: dayPiece(hi, hi) };
  return { d1, d2, head: dayPiece(lo, d1), tail: dayPiece(d2, hi) };
}

/**
 * A bucketed aggregate: day buckets for the whole days of the window; on each ragged day, hour buckets if the
 * group's day is dense, else its raw rows; on each ragged hour of a dense day, minute buckets if the hour is
 * dense, else its raw rows; the raw rows of the ragged minutes. With the screened record as a virtual row, its
 * stored row (a resubmission) is taken out of the buckets and the virtual row put in. Min and max read the
 * raw window when a bucket's extremes are unknown.
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
  const window = windowMs(spec.window);
  // the window's cut, once per request; each bound one parameter, however often the text uses it
  const cut = new WeakMap<TAggregateInput, ReturnType<typeof windowPieces>>();
  const pieces = (i: TAggregateInput) => {
    let p = cut.get(i);
    if (!p) cut.set(i, (p = windowPieces(i.timestamp - window, i.timestamp)));
    return p;
  };
  // Each bound is read through a scalar subquery, so a plan made for one request's values (a custom plan)
  // costs what the plan for any values (the generic plan) costs: PostgreSQL then keeps the generic plan of the
  // named statement after its first executions instead of planning this large statement on every request.
  const bounds = new Map<string, string>();
  const at = (name: string, get: (p: ReturnType<typeof windowPieces>) => number) => {
    let sql = bounds.get(name);
    if (!sql) {
      sql = `(SELECT ${params.input((i) => new Date(get(pieces(i))).toISOString(), "timestamptz")})`;
      bounds.set(name, sql);
    }
    return sql;
  };
  const f = plan.field;
  const group = groupExpr("transaction", "t", spec.groupBy, params);
  const ofGroup = `b."clientId" = ${c} AND b."dim" = ${plan.dim} AND b."key" = ${groupValue}`;
  const buckets = (minutes: number, lo: string, hi: string, guard: string) =>
    `SELECT b."${f.count}" AS n, b."${f.sum}" AS s, b."${f.min}" AS mn, b."${f.max}" AS mx, b."extremaStale" AS stale
     FROM "transaction_buckets" b WHERE ${ofGroup} AND b."minutes" = ${minutes}
       AND b."start" >= ${lo} AND b."start" < ${hi} AND ${guard}`;
  const value = `t.${f.column}`;
  const one = spec.function === "count" ? "1" : `(${value} IS NOT NULL)::int`;
  const raw = (lo: string, hi: string, guard: string) =>
    `SELECT ${one} AS n, ${value} AS s, ${value} AS mn, ${value} AS mx, false AS stale
     FROM ${rawSource} t WHERE t."clientId" = ${c} AND ${group} = ${groupValue}
       AND t."occurredAt" >= ${lo} AND t."occurredAt" < ${hi} AND ${guard}`;
  const dense = (minutes: number, start: string) =>
    `coalesce((SELECT b."denseXid" IS NOT NULL FROM "transaction_buckets" b WHERE ${ofGroup}
       AND b."minutes" = ${minutes} AND b."start" = ${start}), false)`;
  const d1 = at("d1", (p) => p.d1);
  const d2 = at("d2", (p) => p.d2);
  const parts = [buckets(1440, d1, d2, "true")];
  // where the window is read from buckets (a parameter is added on first use: only with a screened record)
  const inBuckets: Array<() => string> = [() => `(t."occurredAt" >= ${d1} AND t."occurredAt" < ${d2})`];
  // whether each ragged day (and ragged hour of a dense day) is dense, each read once: days in `f`, hours in
  // `g` (only on a dense day); in the parts they are outer values, so a part of the other kind reads nothing
  const dayFlags: string[] = [];
  const hourFlags: string[] = [];
  for (const end of ["head", "tail"] as const) {
    const b = (k: "day" | "lo" | "hlo" | "hhi" | "hi") => at(`${end}.${k}`, (p) => p[end][k]);
    const day = `f."${end}"`;
    dayFlags.push(`${dense(1440, b("day"))} AS "${end}"`);
    parts.push(raw(b("lo"), b("hi"), `NOT ${day}`), buckets(60, b("hlo"), b("hhi"), day));
    inBuckets.push(() => `(${day} AND t."occurredAt" >= ${b("hlo")} AND t."occurredAt" < ${b("hhi")})`);
    for (const side of ["head", "tail"] as const) {
      const h = (k: keyof THourPart) => at(`${end}.${side}.${k}`, (p) => p[end][side][k]);
      const hour = `g."${end}_${side}"`;
      hourFlags.push(`CASE WHEN ${day} THEN ${dense(60, h("hour"))} ELSE false END AS "${end}_${side}"`);
      parts.push(
        raw(h("a"), h("b"), `${day} AND NOT ${hour}`),
        raw(h("a"), h("ma"), `${day} AND ${hour}`),
        buckets(1, h("ma"), h("mb"), `${day} AND ${hour}`),
        raw(h("mb"), h("b"), `${day} AND ${hour}`),
      );
      inBuckets.push(
        () => `(${day} AND ${hour} AND t."occurredAt" >= ${h("ma")} AND t."occurredAt" < ${h("mb")})`,
      );
    }
  }
  if (stored) {
    // the stored row of the screened id leaves the buckets (extremes unknown then), the virtual row enters
    const where = `t."clientId" = ${c} AND ${group} = ${groupValue} AND (${inBuckets.map((b) => b()).join(" OR ")})`;
    parts.push(
      `SELECT -${one} AS n, -${value} AS s, NULL::numeric AS mn, NULL::numeric AS mx, true AS stale
       FROM ${stored()} t WHERE ${where}`,
      `SELECT ${one} AS n, ${value} AS s, ${value} AS mn, ${value} AS mx, false AS stale FROM s t WHERE ${where}`,
    );
  }
  // OFFSET 0 keeps each flag subquery one, read once (pulled up, every use would read it again)
  const rows =
    `FROM (SELECT ${dayFlags.join(", ")} OFFSET 0) f CROSS JOIN LATERAL (SELECT ${hourFlags.join(", ")} OFFSET 0) g ` +
    `CROSS JOIN LATERAL (${parts.join("\n UNION ALL ")}) x`;
  switch (spec.function) {
    case "count":
      return `(SELECT coalesce(sum(x.n), 0)::float8 ${rows})`;
    case "sum":
      return `(SELECT coalesce(sum(x.s), 0)::float8 ${rows})`;
    case "avg":
      return `(SELECT (sum(x.s) / nullif(sum(x.n), 0))::float8 ${rows})`;
    default: {
      // extremes of non-empty buckets; unknown ones (a removed extreme) send the whole window to the raw rows
      const fn = spec.function;
      const exact = `(SELECT ${fn}(${numericExpr("transaction", "t", spec.field!, params)})::float8 FROM ${rawSource} t
        WHERE t."clientId" = ${c} AND ${group} = ${groupValue} AND t."occurredAt" > ${from()} AND t."occurredAt" <= ${to()})`;
      return `(SELECT CASE WHEN coalesce(bool_or(x.stale AND x.n <> 0), false) THEN ${exact}
        ELSE ${fn}(CASE WHEN x.n <> 0 THEN x.${fn === "min" ? "mn" : "mx"} END)::float8 END ${rows})`;
    }
  }
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
        ctes.push(
          `so AS MATERIALIZED (SELECT * FROM "transactions" WHERE "clientId" = ${c} AND "id" = ${screenedId()})`,
        );
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
