import { createHash } from "node:crypto";
import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { copyCsvCell } from "@/lib/csv/write-csv";
import { jobsPool } from "@/lib/db";

/**
 * The tables retention applies to: the partitioned ones, each with the time column its months are
 * partitioned by and the column that orders an archive (unique per client). A table without "clientId"
 * goes with its parent's rows (`of`: the parent, the column that holds the parent's id, the parent's time
 * column): a month's archive holds the rows of the parent's rows of that month, whatever their own time, and
 * comes before the parent's (whose delete would delete them unarchived). `removable` (SQL over the table's
 * row; all rows without it) says which of an expired month's rows go: an alert only once its case is
 * closed, so an open case keeps its alerts, and their month's partition, whatever their age.
 */
export const RETENTION_TABLES: ReadonlyArray<{
  table: string;
  time: string;
  order: string;
  of?: { table: string; key: string; time: string };
  removable?: string;
}> = [
  { table: "transactions", time: "occurredAt", order: "id" },
  { table: "decisions", time: "createdAt", order: "id" },
  {
    table: "alerts",
    time: "createdAt",
    order: "id",
    removable: `("caseId" IS NULL OR NOT EXISTS (SELECT 1 FROM "cases" c WHERE c."id" = "alerts"."caseId" AND c."status" <> 'closed'))`,
  },
  // a delivery's attempts, by its "createdAt" (an attempt may start in the next month)
  {
    table: "webhook_attempts",
    time: "startedAt",
    order: "id",
    of: { table: "webhook_deliveries", key: "deliveryId", time: "createdAt" },
  },
  { table: "webhook_deliveries", time: "createdAt", order: "id" },
];
type TRetentionTable = (typeof RETENTION_TABLES)[number];

/** The condition on a table's rows of client $1 whose month (or their parent's) is from $2 to before $3. */
function monthRows(t: TRetentionTable): string {
  const time = q(t.of?.time ?? t.time);
  const own = `"clientId" = $1 AND ${time} >= $2 AND ${time} < $3`;
  if (t.of) return `${q(t.of.key)} IN (SELECT "id" FROM ${q(t.of.table)} WHERE ${own})`;
  return t.removable ? `${own} AND ${t.removable}` : own;
}
/** A client's period when it has none (clients.retentionMonths' default): the usual five years of AML records. */
export const DEFAULT_RETENTION_MONTHS = 60;
/** No client's data goes after less than this, whatever its setting says (the setting is validated too). */
export const MIN_RETENTION_MONTHS = 12;

const FETCH_ROWS = 2_000;
const KEPT_ROWS = "it has rows that a client keeps";
const DELETE_BATCH = 5_000;
const ATTEMPTS = 3;

export type TRetentionArchive = {
  clientId: string;
  table: string;
  /** YYYY-MM (UTC) */
  month: string;
  part: number;
  /** relative to the archive directory: <client>/<table>/<YYYY-MM>.csv (a later part: <YYYY-MM>.partN.csv) */
  file: string;
  rows: number;
  /** null in a dry run */
  sha256: string | null;
  bytes: number | null;
};

export type TRetentionReport = {
  dryRun: boolean;
  now: string;
  archiveDir: string | null;
  /** Per client: its period and the first month it keeps. */
  clients: Array<{ clientId: string; retentionMonths: number; keepsFrom: string }>;
  /** Archived and deleted (in a dry run: what would be). */
  archives: TRetentionArchive[];
  /** Month partitions detached and dropped (in a dry run: what would be, once emptied). */
  droppedPartitions: string[];
  /** Partitions old enough for every client but not dropped, and why. */
  keptPartitions: Array<{ partition: string; reason: string }>;
};

export class RetentionError extends Error {}

const monthStart = (at: Date, add = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + add, 1));
const monthName = (at: Date) => at.toISOString().slice(0, 7);
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

function sha256Line(hex: string, fileName: string): string {
  // the format of `sha256sum`, so `sha256sum -c <file>.sha256` checks it in its directory
  return `${hex}  ${fileName}\n`;
}

async function writeAtomically(file: string, content: string): Promise<void> {
  const tmp = `${file}.tmp`;
  await writeFile(tmp, content);
  const fh = await open(tmp, "r+");
  await fh.sync();
  await fh.close();
  await rename(tmp, file);
}

/** The part number of a month's next archive: 1, or one more than the last one whose rows were deleted. */
async function nextPart(
  db: pg.Pool | pg.PoolClient,
  clientId: string,
  table: string,
  month: Date,
): Promise<number> {
  const { rows } = await db.query<{ part: number }>(
    `SELECT coalesce(max("part"), 0) AS "part" FROM "retention_archives"
     WHERE "clientId" = $1 AND "table" = $2 AND "month" = $3::date`,
    [clientId, table, monthName(month) + "-01"],
  );
  return (rows[0]?.part ?? 0) + 1;
}

const archiveName = (month: Date, part: number) =>
  part === 1 ? `${monthName(month)}.csv` : `${monthName(month)}.part${part}.csv`;

/** The months before `keepsFrom` in which a client has rows of a table, with their counts. */
async function expiredMonths(
  db: pg.Pool,
  t: TRetentionTable,
  clientId: string,
  keepsFrom: Date,
): Promise<Array<{ month: Date; rows: number }>> {
  const { rows } = await db.query<{ month: Date; rows: string }>(
    t.of
      ? `SELECT date_trunc('month', p.${q(t.of.time)}, 'UTC') AS "month", count(*) AS "rows"
         FROM ${q(t.table)} r JOIN ${q(t.of.table)} p ON p."id" = r.${q(t.of.key)}
         WHERE p."clientId" = $1 AND p.${q(t.of.time)} < $2 GROUP BY 1 ORDER BY 1`
      : `SELECT date_trunc('month', ${q(t.time)}, 'UTC') AS "month", count(*) AS "rows"
         FROM ${q(t.table)} WHERE "clientId" = $1 AND ${q(t.time)} < $2 AND ${t.removable ?? "true"}
         GROUP BY 1 ORDER BY 1`,
    [clientId, keepsFrom],
  );
  return rows.map((r) => ({ month: r.month, rows: Number(r.rows) }));
}

/**
 * One client's rows of one month of one table: written to a temporary file, read back and checked against
 * its checksum, then deleted with a row in retention_archives, the file renamed into place and its checksum
 * written beside it, and committed, all in one REPEATABLE READ transaction: the delete sees exactly the rows the archive holds (a row that arrives meanwhile stays, for
 * a later part), and a run stopped before the commit deleted nothing (its file, without its row, is written
 * again by the next run). Null when the month has no rows any more.
 */
async function archiveMonth(
  db: pg.Pool,
  archiveDir: string,
  t: TRetentionTable,
  clientId: string,
  month: Date,
): Promise<TRetentionArchive | null> {
  const next = monthStart(month, 1);
  const conn = await db.connect();
  let tmp: string | null = null;
  try {
    await conn.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    const part = await nextPart(conn, clientId, t.table, month);
    const name = archiveName(month, part);
    const relative = path.join(clientId, t.table, name);
    const file = path.join(archiveDir, relative);
    await mkdir(path.dirname(file), { recursive: true });

    const { rows: columns } = await conn.query<{ name: string }>(
      `SELECT attname AS "name" FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
       ORDER BY attnum`,
      [q(t.table)],
    );
    const where = monthRows(t);
    await conn.query(
      `DECLARE "archive" NO SCROLL CURSOR FOR SELECT ${columns.map((c) => `${q(c.name)}::text`).join(", ")}
       FROM ${q(t.table)} WHERE ${where} ORDER BY ${q(t.order)}`,
      [clientId, month, next],
    );
    tmp = `${file}.tmp`;
    const hash = createHash("sha256");
    const out = await open(tmp, "w");
    let rows = 0;
    let bytes = 0;
    try {
      const write = async (line: string) => {
        const buf = Buffer.from(line, "utf8");
        hash.update(buf);
        bytes += buf.length;
        await out.write(buf);
      };
      await write(columns.map((c) => copyCsvCell(c.name)).join(",") + "\n");
      for (;;) {
        const batch = await conn.query<Array<string | null>>({
          text: `FETCH ${FETCH_ROWS} FROM "archive"`,
          rowMode: "array",
        });
        const lines = batch.rows.map((r) => r.map(copyCsvCell).join(",") + "\n");
        if (lines.length > 0) await write(lines.join(""));
        rows += lines.length;
        if (lines.length < FETCH_ROWS) break;
      }
      await out.sync();
    } finally {
      await out.close();
    }
    await conn.query(`CLOSE "archive"`);
    if (rows === 0) {
      await conn.query("ROLLBACK");
      return null;
    }
    const sha256 = hash.digest("hex");
    // read back: the file on disk is what was hashed (a concurrent run writing the same file fails here)
    const written = await readFile(tmp);
    const reread = createHash("sha256").update(written).digest("hex");
    if (written.length !== bytes || reread !== sha256)
      throw new RetentionError(
        `${relative}: the file read back does not match its checksum; nothing deleted`,
      );

    let deleted = 0;
    for (;;) {
      const r = await conn.query(
        `DELETE FROM ${q(t.table)} WHERE ${where} AND ${q(t.order)} IN (
           SELECT ${q(t.order)} FROM ${q(t.table)} WHERE ${where} LIMIT ${DELETE_BATCH})`,
        [clientId, month, next],
      );
      deleted += r.rowCount ?? 0;
      if ((r.rowCount ?? 0) === 0) break;
    }
    if (deleted !== rows)
      throw new RetentionError(`${relative}: ${rows} rows archived but ${deleted} deleted; nothing deleted`);
    if (t.table === "transactions") {
      // the emptied buckets of the month (the delete's triggers brought them to zero)
      await conn.query(
        `DELETE FROM "transaction_buckets" WHERE "clientId" = $1 AND "start" >= $2 AND "start" < $3 AND "count" = 0`,
        [clientId, month, next],
      );
      // the month's marks of days whose distinct values are kept (the delete's triggers removed the values)
      await conn.query(
        `DELETE FROM "transaction_distinct_days" m WHERE m."clientId" = $1 AND m."day" >= $2 AND m."day" < $3
           AND NOT EXISTS (SELECT 1 FROM "transaction_distinct_values" d WHERE d."clientId" = m."clientId"
             AND d."dim" = m."dim" AND d."key" = m."key" AND d."day" = m."day")`,
        [clientId, month, next],
      );
    }
    await conn.query(
      `INSERT INTO "retention_archives" ("clientId", "table", "month", "part", "file", "sha256", "rows", "bytes")
       VALUES ($1, $2, $3::date, $4, $5, $6, $7, $8)`,
      [clientId, t.table, monthName(month) + "-01", part, relative, sha256, rows, bytes],
    );
    // in place only once the delete went through (a concurrent run's delete fails first: its files stay
    // temporary); a crash before the commit leaves files without their row, written again by the next run
    await rename(tmp, file);
    tmp = null;
    await writeAtomically(`${file}.sha256`, sha256Line(sha256, name));
    await conn.query("COMMIT");
    return { clientId, table: t.table, month: monthName(month), part, file: relative, rows, sha256, bytes };
  } catch (err) {
    await conn.query("ROLLBACK").catch(() => undefined);
    if (tmp) await rm(tmp, { force: true });
    throw err;
  } finally {
    conn.release();
  }
}

/** Retries what a concurrent writer made fail (serialization failure, deadlock): nothing was deleted. */
async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt < ATTEMPTS && (code === "40001" || code === "40P01")) continue;
      throw err;
    }
  }
}

/** The month partitions of a table: name and first instant (from the name "<table>_pYYYY_MM"). */
async function monthPartitions(db: pg.Pool, table: string): Promise<Array<{ name: string; month: Date }>> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS "name" FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = $1::regclass ORDER BY 1`,
    [q(table)],
  );
  const pattern = new RegExp(`^${table}_p(\\d{4})_(\\d{2})$`);
  return rows.flatMap((r) => {
    const m = pattern.exec(r.name);
    return m ? [{ name: r.name, month: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) }] : [];
  });
}

/** Detaches and drops a partition if it is empty once detached (a row that arrived meanwhile: kept). */
async function dropIfEmpty(db: pg.Pool, table: string, partition: string): Promise<string | null> {
  const conn = await db.connect();
  try {
    await conn.query("BEGIN");
    // DETACH waits for every statement on the table: give up rather than queue the writers behind it
    await conn.query("SET LOCAL lock_timeout = '5s'");
    await conn.query(`ALTER TABLE ${q(table)} DETACH PARTITION ${q(partition)}`);
    const { rows } = await conn.query(`SELECT 1 FROM ${q(partition)} LIMIT 1`);
    if (rows.length > 0) {
      await conn.query("ROLLBACK");
      return KEPT_ROWS;
    }
    await conn.query(`DROP TABLE ${q(partition)}`);
    await conn.query("COMMIT");
    return null;
  } catch (err) {
    await conn.query("ROLLBACK").catch(() => undefined);
    if ((err as { code?: unknown }).code === "55P03") return "the table was busy (lock timeout); run again";
    throw err;
  } finally {
    conn.release();
  }
}

/**
 * Applies every client's retention period at `now`: each month before the first one the client keeps
 * (its `retentionMonths` whole months before the current month) is archived per table and deleted
 * (archiveMonth); then every month partition that is that old for every client and empty is detached and
 * dropped. Alerts go only once their case is closed; reports, cases, audit logs and comments are never
 * touched. Safe to run again at any point; a dry run reads only.
 */
export async function applyRetention(opts: {
  now: Date;
  archiveDir: string | null;
  dryRun: boolean;
  db?: pg.Pool;
}): Promise<TRetentionReport> {
  const db = opts.db ?? jobsPool();
  if (!opts.dryRun && !opts.archiveDir) throw new RetentionError("an archive directory is needed");
  const archiveDir = opts.archiveDir ? path.resolve(opts.archiveDir) : null;
  const current = monthStart(opts.now);
  const { rows: clientRows } = await db.query<{ id: string; retentionMonths: number }>(
    `SELECT "id", "retentionMonths" FROM "clients" ORDER BY "id"`,
  );
  const clients = clientRows.map((c) => {
    const retentionMonths = Math.max(c.retentionMonths, MIN_RETENTION_MONTHS);
    return { clientId: c.id, retentionMonths, keepsFrom: monthStart(current, -retentionMonths) };
  });
  const report: TRetentionReport = {
    dryRun: opts.dryRun,
    now: opts.now.toISOString(),
    archiveDir,
    clients: clients.map((c) => ({ ...c, keepsFrom: monthName(c.keepsFrom) })),
    archives: [],
    droppedPartitions: [],
    keptPartitions: [],
  };

  for (const t of RETENTION_TABLES) {
    for (const c of clients) {
      for (const { month, rows } of await expiredMonths(db, t, c.clientId, c.keepsFrom)) {
        if (opts.dryRun) {
          const part = await nextPart(db, c.clientId, t.table, month);
          report.archives.push({
            clientId: c.clientId,
            table: t.table,
            month: monthName(month),
            part,
            file: path.join(c.clientId, t.table, archiveName(month, part)),
            rows,
            sha256: null,
            bytes: null,
          });
          continue;
        }
        const archived = await withRetry(() => archiveMonth(db, archiveDir!, t, c.clientId, month));
        if (archived) report.archives.push(archived);
      }
    }

    // a partition goes when no client keeps its month (a client without rows counts too: its period)
    const keepsFrom = new Date(
      clients.length === 0
        ? monthStart(current, -DEFAULT_RETENTION_MONTHS).getTime()
        : Math.min(...clients.map((c) => c.keepsFrom.getTime())),
    );
    for (const p of await monthPartitions(db, t.table)) {
      if (p.month >= keepsFrom) continue;
      if (opts.dryRun) {
        // what the run would keep: rows that no retention removes (an open case's alerts)
        const { rows } = t.removable
          ? await db.query(`SELECT 1 FROM ${q(p.name)} AS ${q(t.table)} WHERE NOT ${t.removable} LIMIT 1`)
          : { rows: [] };
        if (rows.length > 0) report.keptPartitions.push({ partition: p.name, reason: KEPT_ROWS });
        else report.droppedPartitions.push(p.name);
        continue;
      }
      const kept = await dropIfEmpty(db, t.table, p.name);
      if (kept) report.keptPartitions.push({ partition: p.name, reason: kept });
      else report.droppedPartitions.push(p.name);
    }
  }

  if (!opts.dryRun && archiveDir) {
    // a manifest per client archived: every archive of that client so far
    for (const clientId of new Set(report.archives.map((a) => a.clientId))) {
      const { rows } = await db.query(
        `SELECT "table", to_char("month", 'YYYY-MM') AS "month", "part", "file", "sha256", "rows"::text AS "rows",
           "bytes"::text AS "bytes", "archivedAt" FROM "retention_archives" WHERE "clientId" = $1
         ORDER BY "table", "month", "part"`,
        [clientId],
      );
      await writeAtomically(
        path.join(archiveDir, clientId, "manifest.json"),
        JSON.stringify({ clientId, archives: rows }, null, 2) + "\n",
      );
    }
  }
  return report;
}
