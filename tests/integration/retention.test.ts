import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pgPool, prisma } from "@/lib/db";
import { ensureMonthPartitions } from "@/lib/jobs/ensure-partitions";
import { applyRetention } from "@/lib/retention/apply-retention";
import { readCsvRecords } from "@/lib/sanctions/read-csv";
import { createTestClient } from "@/tests/factories";
import { BUCKET_MISMATCHES_SQL, DISTINCT_MISMATCHES_SQL } from "@/tests/support/bucket-check";

// Retention: two clients with different periods; each expired month of each client is archived (CSV with a
// sha256 beside it, and a manifest) and deleted; a month partition is dropped only when no client keeps
// its month; the buckets stay exact; alerts go once their case is closed; reports, cases, audit logs and
// comments stay; a second run changes nothing; a dry run changes nothing.

const NOW = "2026-11-15T10:00:00Z";
const dir = mkdtempSync(path.join(tmpdir(), "retention-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const q = (sql: string, params: unknown[] = []) => pgPool().query(sql, params);
const count = async (sql: string, params: unknown[] = []) =>
  Number((await q(sql, params)).rows[0]!.n as string);
const insertTx = (clientId: string, id: string, occurredAt: string, amount: number, extra = "{}") =>
  q(
    `INSERT INTO transactions ("clientId", id, "userId", "merchantId", "accountId", status, "currencyCode", amount,
       "baseAmount", "occurredAt", data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
     VALUES ($1, $2, 'u' || ($4::int % 3), NULL, 'acc' || ($4::int % 2), 'APPROVED', 'EUR', $4, CASE WHEN $4::int % 2 = 0 THEN $4 END, $3,
       $5::jsonb, 'h', 'low', 'ALLOW', now())`,
    [clientId, id, occurredAt, amount, extra],
  );
const partitions = async () =>
  (
    await q(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'transactions'::regclass ORDER BY 1`,
    )
  ).rows.map((r: { name: string }) => r.name);
const months = async (clientId: string) =>
  (
    await q(
      `SELECT to_char("occurredAt" AT TIME ZONE 'UTC', 'YYYY-MM') AS m, count(*)::int AS n FROM transactions
       WHERE "clientId" = $1 GROUP BY 1 ORDER BY 1`,
      [clientId],
    )
  ).rows.map((r: { m: string; n: number }) => `${r.m}:${r.n}`);
const untouched = async () => ({
  alerts: await count(`SELECT count(*) AS n FROM alerts`),
  cases: await count(`SELECT count(*) AS n FROM cases`),
  audit: await count(`SELECT count(*) AS n FROM audit_logs`),
  comments: await count(`SELECT count(*) AS n FROM comments`),
  reports: await count(`SELECT count(*) AS n FROM reports`),
});
const snapshot = async () => ({
  transactions: (await q(`SELECT * FROM transactions ORDER BY "clientId", id`)).rows,
  keys: await count(`SELECT count(*) AS n FROM transaction_keys`),
  decisions: (await q(`SELECT * FROM decisions ORDER BY id`)).rows,
  buckets: (await q(`SELECT * FROM transaction_buckets ORDER BY 1, 2, 3, 4, 5`)).rows,
  partitions: await partitions(),
  archives: await count(`SELECT count(*) AS n FROM retention_archives`),
});

describe("retention", () => {
  it("archives and deletes each client's expired months, drops a partition no client keeps, and is idempotent", async () => {
    const a = (await createTestClient({ name: "A" })).clientId;
    const b = (await createTestClient({ name: "B" })).clientId;
    // A keeps 12 months before November 2026 (from 2025-11), B 24 (from 2024-11)
    await prisma.client.update({ where: { id: a }, data: { retentionMonths: 12 } });
    await prisma.client.update({ where: { id: b }, data: { retentionMonths: 24 } });
    let n = 0;
    for (const c of [a, b])
      for (const m of ["2024-06", "2024-12", "2025-06", "2025-12", "2026-10"])
        for (let k = 0; k < 3; k++)
          await insertTx(
            c,
            `${m}-${k}`,
            `${m}-${String(3 + k).padStart(2, "0")}T0${k}:00:00Z`,
            ++n,
            // text an archive must keep exactly: a quote, a comma, a newline, a formula-looking value
            k === 1 ? JSON.stringify({ note: 'a "q", b\nc', f: "=1+1" }) : "{}",
          );
    // a busy day of one of A's users (4 rows): its accounts per user are kept
    for (let k = 0; k < 4; k++) await insertTx(a, `busy-${k}`, `2025-06-10T0${k}:00:00Z`, 3 * (k + 1));
    // A's accounts per user, counted per day from every row (a countDistinct rule's pair, rebuilt)
    await q(`SELECT transaction_distinct_spec_add($1, 1::smallint, 3::smallint)`, [a]);
    await q(`SELECT transaction_distinct_rebuild($1)`, [a]);
    expect(
      await count(`SELECT count(*) AS n FROM transaction_distinct_values WHERE "day" < '2025-11-01'`),
    ).toBeGreaterThan(0);
    expect(
      await count(`SELECT count(*) AS n FROM transaction_distinct_days WHERE "day" < '2025-11-01'`),
    ).toBeGreaterThan(0);
    // alerts of A from 2024-06: one in a case still open (kept), one in a case closed since (goes)
    for (const [id, user] of [
      ["al-open", "u1"],
      ["al-closed", "u2"],
    ])
      await q(
        `INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId",
           "ruleName", level, reason, "recommendedAction", "createdAt")
         VALUES ($2, $1, '2024-06-' || $3, $3, 'R', 'r', 'v', 'Rule', 'high', 'r', 'REVIEW', '2024-06-05')`,
        [a, id, user],
      );
    await q(
      `UPDATE cases SET status = 'closed', "closedAt" = '2024-07-01' WHERE "clientId" = $1 AND "subjectId" = 'u2'`,
      [a],
    );
    // the job makes the partitions of these months (their rows were in the default partition)
    expect(await ensureMonthPartitions(pgPool(), new Date(NOW))).toEqual(
      expect.arrayContaining([
        "transactions_p2024_06",
        "transactions_p2024_12",
        "transactions_p2025_06",
        "alerts_p2024_06",
      ]),
    );
    // decisions of A in a month it no longer keeps and in one it keeps
    await q(
      `INSERT INTO decisions (id, "clientId", "subjectType", "subjectId", "riskLevel", "recommendedAction", evaluated,
         aggregates, input, response, "durationMs", "createdAt")
       SELECT 'd-' || m || '-' || k, $1, 'transaction', m || '-' || k, 'low', 'ALLOW', '[]', '{}', '{}', '{}', 1,
         (m || '-10T00:00:00Z')::timestamptz + k * interval '1 hour'
       FROM unnest(ARRAY['2024-06', '2025-12']) m, generate_series(0, 1) k`,
      [a],
    );
    expect(await ensureMonthPartitions(pgPool(), new Date(NOW))).toEqual(
      expect.arrayContaining(["decisions_p2024_06", "decisions_p2025_12"]),
    );
    // a row of an old month without a partition stays in the default partition
    await insertTx(a, "old-default", "2023-01-05T00:00:00Z", 1000);
    // what retention never touches: an alert of this month (and its case), audit, comments, a report
    await q(
      `INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
         level, reason, "recommendedAction") VALUES ('al1', $1, '2024-06-0', 'u1', 'R', 'r', 'v', 'Rule', 'high', 'r', 'REVIEW')`,
      [a],
    );
    await q(
      `INSERT INTO audit_logs (id, "clientId", "actorType", action, "entityType", "entityId", "createdAt")
       VALUES ('au1', $1, 'api', 'x', 'transaction', '2024-06-0', '2024-06-03')`,
      [a],
    );
    await q(
      `INSERT INTO comments (id, "clientId", "userId", comment, "commenterId", "transactionId", "createdAt")
       VALUES ('co1', $1, 'u1', 'note', 'x', '2024-06-0', '2024-06-03')`,
      [a],
    );
    await q(
      `INSERT INTO reports ("clientId", id, "reportType", "transactionIds", "createdAt", "updatedAt", "createdById")
       VALUES ($1, 'r1', 'STR', '{2024-06-0}', '2024-06-04', '2024-06-04', 'x')`,
      [a],
    );
    const kept = await untouched();
    expect(kept).toEqual({ alerts: 3, cases: 2, audit: 1, comments: 1, reports: 1 });

    // a dry run says what it would do and changes nothing (no file either)
    const before = await snapshot();
    const beforeText = (
      await pgPool().query<Array<string | null>>({
        text: `SELECT ${
          (
            await q(
              `SELECT string_agg(format('%I::text', attname), ', ' ORDER BY attnum) AS s FROM pg_attribute
             WHERE attrelid = 'transactions'::regclass AND attnum > 0 AND NOT attisdropped`,
            )
          ).rows[0].s
        } FROM transactions WHERE "clientId" = $1 AND "occurredAt" < '2024-07-01' AND "occurredAt" >= '2024-06-01' ORDER BY id`,
        values: [a],
        rowMode: "array",
      })
    ).rows;
    expect(beforeText).toHaveLength(3);
    const dry = await applyRetention({ now: new Date(NOW), archiveDir: dir, dryRun: true });
    expect(
      dry.archives.map((x) => `${x.clientId === a ? "A" : "B"} ${x.table} ${x.month} ${x.rows}`),
    ).toEqual([
      "A transactions 2023-01 1",
      "A transactions 2024-06 3",
      "A transactions 2024-12 3",
      "A transactions 2025-06 7",
      "B transactions 2024-06 3",
      "A decisions 2024-06 2",
      "A alerts 2024-06 1",
    ]);
    expect(dry.droppedPartitions).toEqual(["transactions_p2024_06", "decisions_p2024_06"]);
    expect(dry.keptPartitions).toEqual([
      { partition: "alerts_p2024_06", reason: "it has rows that a client keeps" },
    ]);
    expect(await snapshot()).toEqual(before);
    expect(readdirSync(dir)).toEqual([]);

    // what a run stopped before its commit leaves: a file without its retention_archives row, and a temp file
    mkdirSync(path.join(dir, b, "transactions"), { recursive: true });
    writeFileSync(path.join(dir, b, "transactions", "2024-06.csv"), "partial");
    writeFileSync(path.join(dir, b, "transactions", "2024-06.csv.tmp"), "partial");

    // the command itself (wired into the CLI), then the function again
    const res = spawnSync(
      "npx",
      ["tsx", "lib/cli/main.ts", "retention", "--archive-dir", dir, "--now", NOW],
      { env: { ...process.env }, encoding: "utf8", timeout: 120_000 },
    );
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
    const run = JSON.parse(res.stdout) as Awaited<ReturnType<typeof applyRetention>>;
    expect(run.archives.map((x) => `${x.clientId === a ? "A" : "B"} ${x.file} ${x.rows}`)).toEqual([
      `A ${a}/transactions/2023-01.csv 1`,
      `A ${a}/transactions/2024-06.csv 3`,
      `A ${a}/transactions/2024-12.csv 3`,
      `A ${a}/transactions/2025-06.csv 7`,
      `B ${b}/transactions/2024-06.csv 3`,
      `A ${a}/decisions/2024-06.csv 2`,
      `A ${a}/alerts/2024-06.csv 1`,
    ]);
    expect(run.droppedPartitions).toEqual(["transactions_p2024_06", "decisions_p2024_06"]);
    expect(run.keptPartitions).toEqual([
      { partition: "alerts_p2024_06", reason: "it has rows that a client keeps" },
    ]);
    // the closed case's alert went (with its key), the open case's stayed; both cases stay
    expect(
      (await q(`SELECT id FROM alerts WHERE "clientId" = $1 ORDER BY id`, [a])).rows.map(
        (r: { id: string }) => r.id,
      ),
    ).toEqual(["al-open", "al1"]);
    expect(await count(`SELECT count(*) AS n FROM alert_keys WHERE "clientId" = $1`, [a])).toBe(2);
    expect(
      (await q(`SELECT id FROM decisions WHERE "clientId" = $1 ORDER BY id`, [a])).rows.map(
        (r: { id: string }) => r.id,
      ),
    ).toEqual(["d-2025-12-0", "d-2025-12-1"]);

    // the rows are gone, the rest stays; B's 2024-12 keeps its partition
    expect(await months(a)).toEqual(["2025-12:3", "2026-10:3"]);
    expect(await months(b)).toEqual(["2024-12:3", "2025-06:3", "2025-12:3", "2026-10:3"]);
    const parts = await partitions();
    expect(parts).not.toContain("transactions_p2024_06");
    expect(parts).toEqual(expect.arrayContaining(["transactions_p2024_12", "transactions_p2025_06"]));
    expect(await count(`SELECT count(*) AS n FROM transaction_keys`)).toBe(
      await count(`SELECT count(*) AS n FROM transactions`),
    );
    expect(await count(BUCKET_MISMATCHES_SQL.replace('"mismatches"', "n"))).toBe(0);
    expect(
      await count(
        `SELECT count(*) AS n FROM transaction_buckets WHERE "clientId" = $1 AND start < '2025-11-01'`,
        [a],
      ),
    ).toBe(0);
    // the deletes went through the distinct triggers: the expired days' rows are gone
    expect(await count(DISTINCT_MISMATCHES_SQL.replace('"mismatches"', "n"))).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM transaction_distinct_values WHERE "day" < '2025-11-01'`),
    ).toBe(0);
    // and so are their days' marks
    expect(
      await count(`SELECT count(*) AS n FROM transaction_distinct_days WHERE "day" < '2025-11-01'`),
    ).toBe(0);
    expect(await untouched()).toEqual({ ...kept, alerts: 2 });

    // each archive: its checksum file matches, and it holds exactly the rows deleted, restorable by COPY
    for (const x of run.archives) {
      const file = path.join(dir, x.file);
      const bytes = readFileSync(file);
      const sha = createHash("sha256").update(bytes).digest("hex");
      expect(readFileSync(`${file}.sha256`, "utf8")).toBe(`${sha}  ${path.basename(file)}\n`);
      expect(x.sha256).toBe(sha);
      expect(existsSync(`${file}.tmp`)).toBe(false);
    }
    const manifest = JSON.parse(readFileSync(path.join(dir, a, "manifest.json"), "utf8")) as {
      archives: Array<{ file: string; sha256: string; rows: string }>;
    };
    expect(manifest.archives.map((m) => `${m.file} ${m.rows}`).sort()).toEqual(
      run.archives
        .filter((x) => x.clientId === a)
        .map((x) => `${x.file} ${x.rows}`)
        .sort(),
    );
    // the archive holds each row's columns as PostgreSQL writes them (header: the column names in order)
    const records: string[][] = [];
    for await (const r of readCsvRecords(path.join(dir, a, "transactions", "2024-06.csv")))
      records.push(r.fields);
    const columns = (
      await q(
        `SELECT attname FROM pg_attribute WHERE attrelid = 'transactions'::regclass AND attnum > 0 AND NOT attisdropped
         ORDER BY attnum`,
      )
    ).rows.map((r: { attname: string }) => r.attname);
    expect(records[0]).toEqual(columns);
    expect(records.slice(1)).toEqual(beforeText.map((r) => r.map((v) => v ?? "")));
    expect(records.slice(1).some((r) => r.some((v) => v.includes('a \\"q\\", b\\nc')))).toBe(true);

    // run again: nothing to do, nothing changes
    const after = await snapshot();
    const again = await applyRetention({ now: new Date(NOW), archiveDir: dir, dryRun: false });
    expect(again.archives).toEqual([]);
    expect(again.droppedPartitions).toEqual([]);
    expect(await snapshot()).toEqual(after);

    // a row of an archived month that arrives later goes to a further part; the first archive stays
    await insertTx(a, "late", "2024-12-20T00:00:00Z", 7);
    const lateDry = await applyRetention({ now: new Date(NOW), archiveDir: dir, dryRun: true });
    expect(lateDry.archives.map((x) => `${x.file} ${x.rows} ${x.part}`)).toEqual([
      `${a}/transactions/2024-12.part2.csv 1 2`,
    ]);
    const late = await applyRetention({ now: new Date(NOW), archiveDir: dir, dryRun: false });
    expect(late.archives.map((x) => `${x.file} ${x.rows} ${x.part}`)).toEqual([
      `${a}/transactions/2024-12.part2.csv 1 2`,
    ]);
    expect(
      createHash("sha256")
        .update(readFileSync(path.join(dir, a, "transactions", "2024-12.csv")))
        .digest("hex"),
    ).toBe(run.archives.find((x) => x.file.endsWith(`${a}/transactions/2024-12.csv`))!.sha256);
    expect(await count(BUCKET_MISMATCHES_SQL.replace('"mismatches"', "n"))).toBe(0);
  }, 180_000);

  it("archives and deletes webhook deliveries of expired months with their attempts, and keeps recent ones", async () => {
    // after the test above: its clients have nothing left to archive
    const c = (await createTestClient({ name: "C" })).clientId;
    await prisma.client.update({ where: { id: c }, data: { retentionMonths: 12 } }); // keeps from 2025-11
    const BODY = '{"a":"b, \\"c\\"\\n"}';
    const delivery = (id: string, createdAt: string) =>
      q(
        `INSERT INTO webhook_deliveries (id, "clientId", "subscriptionId", "outboxEventId", "eventType", body, status,
           "createdAt") VALUES ($1, $2, 's', 'e-' || $1, 'transaction.screened', $4, 'delivered', $3)`,
        [id, c, createdAt, BODY],
      );
    const attempt = (deliveryId: string, n: number, startedAt: string) =>
      q(
        `INSERT INTO webhook_attempts (id, "deliveryId", attempt, "startedAt", "durationMs", "responseStatus")
         VALUES ($1 || '-' || $2::int, $1, $2::int, $3, 5, 200)`,
        [deliveryId, n, startedAt],
      );
    await delivery("wd-2024-03", "2024-03-05T00:00:00Z");
    await attempt("wd-2024-03", 1, "2024-03-05T00:00:01Z");
    await attempt("wd-2024-03", 2, "2024-03-05T00:10:00Z");
    // the last instant of an expired month, its attempts in a kept one: they go with their delivery
    await delivery("wd-2025-10", "2025-10-31T23:59:59Z");
    await attempt("wd-2025-10", 1, "2025-10-31T23:59:59.500Z");
    await attempt("wd-2025-10", 2, "2025-11-01T00:05:00Z");
    await delivery("wd-2025-11", "2025-11-01T00:00:00Z");
    await attempt("wd-2025-11", 1, "2025-11-01T00:00:01Z");
    await delivery("wd-2026-10", "2026-10-20T00:00:00Z");
    await attempt("wd-2026-10", 1, "2026-10-20T00:00:01Z");
    expect(await ensureMonthPartitions(pgPool(), new Date(NOW))).toEqual(
      expect.arrayContaining([
        "webhook_deliveries_p2024_03",
        "webhook_attempts_p2024_03",
        "webhook_attempts_p2025_11",
      ]),
    );
    const kept = {
      deliveries: (await q(`SELECT * FROM webhook_deliveries WHERE "createdAt" >= '2025-11-01' ORDER BY id`))
        .rows,
      attempts: (
        await q(
          `SELECT * FROM webhook_attempts WHERE "deliveryId" IN ('wd-2025-11', 'wd-2026-10') ORDER BY id`,
        )
      ).rows,
    };
    const attemptsText = (
      await pgPool().query<Array<string | null>>({
        text: `SELECT id, "deliveryId", attempt::text, "startedAt"::text, "durationMs"::text, "responseStatus"::text, error
               FROM webhook_attempts WHERE "deliveryId" = 'wd-2025-10' ORDER BY id`,
        rowMode: "array",
      })
    ).rows;

    const dry = await applyRetention({ now: new Date(NOW), archiveDir: dir, dryRun: true });
    expect(dry.archives.map((x) => `${x.table} ${x.month} ${x.rows}`)).toEqual([
      "webhook_attempts 2024-03 2",
      "webhook_attempts 2025-10 2",
      "webhook_deliveries 2024-03 1",
      "webhook_deliveries 2025-10 1",
    ]);
    const run = await applyRetention({ now: new Date(NOW), archiveDir: dir, dryRun: false });
    expect(run.archives.map((x) => `${x.file} ${x.rows}`)).toEqual([
      `${c}/webhook_attempts/2024-03.csv 2`,
      `${c}/webhook_attempts/2025-10.csv 2`,
      `${c}/webhook_deliveries/2024-03.csv 1`,
      `${c}/webhook_deliveries/2025-10.csv 1`,
    ]);
    // no client keeps March 2024: its partitions go; B keeps October 2025 (24 months)
    expect(run.droppedPartitions).toEqual(["webhook_attempts_p2024_03", "webhook_deliveries_p2024_03"]);

    expect((await q(`SELECT * FROM webhook_deliveries WHERE "clientId" = $1 ORDER BY id`, [c])).rows).toEqual(
      kept.deliveries,
    );
    expect(
      (await q(`SELECT a.* FROM webhook_attempts a WHERE "deliveryId" LIKE 'wd-%' ORDER BY id`)).rows,
    ).toEqual(kept.attempts);
    expect(await count(`SELECT count(*) AS n FROM webhook_delivery_keys WHERE id LIKE 'wd-%'`)).toBe(2);
    // the attempt started in a kept month is in its delivery's archive, as PostgreSQL wrote it
    const records: string[][] = [];
    for await (const r of readCsvRecords(path.join(dir, c, "webhook_attempts", "2025-10.csv")))
      records.push(r.fields);
    expect(records[0]).toEqual([
      "id",
      "deliveryId",
      "attempt",
      "startedAt",
      "durationMs",
      "responseStatus",
      "error",
    ]);
    expect(records.slice(1)).toEqual(attemptsText.map((r) => r.map((v) => v ?? "")));
    const deliveryRecords: string[][] = [];
    for await (const r of readCsvRecords(path.join(dir, c, "webhook_deliveries", "2024-03.csv")))
      deliveryRecords.push(r.fields);
    expect(deliveryRecords.map((r) => r[0])).toEqual(["id", "wd-2024-03"]);
    expect(deliveryRecords[1]).toContain(BODY);

    // run again: nothing to do
    expect((await applyRetention({ now: new Date(NOW), archiveDir: dir, dryRun: false })).archives).toEqual(
      [],
    );
  }, 120_000);
});
