import { randomBytes } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import { boundedCache } from "@/lib/cache/bounded-cache";
import type { Tx } from "@/lib/db";
import { statementName } from "@/lib/db-prepared";
import { Prisma } from "@/lib/generated/prisma/client";

// Small helpers of the raw-SQL screening path: ids, parameter lists, named statements, and a Tx-shaped
// view of a connection for code that only runs $queryRawUnsafe.

let counter = 0;

// A screening takes 10-20 ids: their random bytes come from one 3 KB draw of the CSPRNG, hex-encoded
// at once, not one draw each (randomBytes per id was ~0.1 ms of CPU per screening, most of it
// per-call overhead).
const RANDOM_POOL_BYTES = 6 * 512;
let randomHex = "";
let randomOffset = 0;

function random6Hex(): string {
  if (randomOffset + 12 > randomHex.length) {
    randomHex = randomBytes(RANDOM_POOL_BYTES).toString("hex");
    randomOffset = 0;
  }
  randomOffset += 12;
  return randomHex.slice(randomOffset - 12, randomOffset);
}

// Date.now() in base 36, converted once per millisecond
let lastMs = 0;
let lastMs36 = "";

/** A collision-resistant id in the shape of Prisma's cuid() (lowercase, starts with "c"). */
export function newId(): string {
  counter = (counter + 1) % 1_679_616;
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastMs36 = ms.toString(36);
  }
  return `c${lastMs36}${counter.toString(36).padStart(4, "0")}${random6Hex()}`;
}

// Statement names by text: a screening's read and write texts repeat for every request of one client
// configuration, and hashing 5-10 KB of text twice per request cost more than a map lookup.
const namesByText = boundedCache<string>(500);

function namedStatement(text: string): string {
  let name = namesByText.get(text);
  if (name === undefined) {
    name = statementName(text);
    namesByText.set(text, name);
  }
  return name;
}

/**
 * The statement as a named (prepared) statement: each connection parses and plans it once, and after
 * a few executions PostgreSQL keeps a generic plan (planning the read of a screening, with its
 * aggregates, cost ~2-3 ms of database CPU per request; a generic plan ~0.1 ms). The name is the
 * text's hash, so a text changes its name (a client's rules change the text of its read) and never
 * collides. Texts are bounded: one per client configuration and per shape of the write's row lists.
 */
export function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  return { name: namedStatement(text), text, values };
}

/** Positional parameters: `add(value, cast)` answers `$n::cast`. */
export class Params {
  readonly values: unknown[] = [];
  /** The statement writes outbox rows that its writer wakes the job drivers for (webhookCtes, commitWrite). */
  wakesJobs = false;
  add(value: unknown, cast: string): string {
    this.values.push(value === undefined ? null : value);
    return `$${this.values.length}::${cast}`;
  }
  json(value: unknown): string {
    return this.add(value === undefined || value === null ? null : JSON.stringify(value), "jsonb");
  }
  /** `(…), (…)` for a multi-row VALUES list: each row is [value, cast] pairs. */
  rows(rows: Array<Array<[unknown, string]>>): string {
    let sql = "";
    for (const row of rows) {
      let values = "";
      for (const [v, cast] of row) values += `${values ? ", " : ""}${this.add(v, cast)}`;
      sql += `${sql ? ", " : ""}(${values})`;
    }
    return sql;
  }
}

/** A parameter read from the request when a cached statement is filled (TemplateParams.input). */
class Slot<I> {
  constructor(readonly get: (input: I) => unknown) {}
}

/**
 * The parameters of a statement built once per shape and reused for every request of that shape:
 * `add` keeps a constant (a rule's literal, a JSON path), `input` a slot that `fill` reads from each
 * request's input. Placeholders are numbered after the caller's first `offset` parameters.
 */
export class TemplateParams<I> {
  readonly values: unknown[] = [];
  constructor(private readonly offset = 0) {}
  add(value: unknown, cast: string): string {
    this.values.push(value === undefined ? null : value);
    return `$${this.offset + this.values.length}::${cast}`;
  }
  input(get: (input: I) => unknown, cast: string): string {
    this.values.push(new Slot(get));
    return `$${this.offset + this.values.length}::${cast}`;
  }
  /** Appends one request's values to `values`, which holds the caller's `offset` parameters. */
  fill(values: unknown[], input: I): void {
    if (values.length !== this.offset) throw new Error("statement template filled at the wrong offset");
    for (const v of this.values) {
      if (!(v instanceof Slot)) values.push(v);
      else {
        const value = (v as Slot<I>).get(input);
        values.push(value === undefined ? null : value);
      }
    }
  }
}

/** The connection (or the pool) as the part of Tx that computeAggregates and the sanctions index use (raw queries). */
export function rawTx(db: Pick<Pool, "query"> | PoolClient): Tx {
  return {
    $queryRawUnsafe: async (sql: string, ...values: unknown[]) => (await db.query(sql, values)).rows,
    $queryRaw: async (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
      const sql = query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
      return (await db.query(sql.text, sql.values)).rows;
    },
  } as unknown as Tx;
}

/** A parameter added on first use (a parameter the SQL never references has no type and fails). */
export function once(add: () => string): () => string {
  let placeholder: string | undefined;
  return () => (placeholder ??= add());
}

/** A request body as it reads back from its jsonb column. */
export function asStored<T>(value: T): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
