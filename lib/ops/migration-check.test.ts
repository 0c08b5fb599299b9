import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkMigration, checkMigrations, MIGRATION_CHECK_BASELINE } from "@/lib/ops/migration-check";

const NAME = "20991231000000_example";
const reasons = (sql: string, all: string[] = []) => checkMigration(NAME, sql, all).map((p) => p.reason);

describe("the expand/contract check of migrations", () => {
  it.each([
    ['DROP TABLE "job_runs";', /DROP TABLE/],
    ['DROP TABLE IF EXISTS public."job_runs";', /DROP TABLE/],
    ['ALTER TABLE "job_runs" DROP COLUMN "lastError";', /DROP COLUMN/],
    ['ALTER TABLE job_runs DROP "lastError";', /DROP COLUMN/],
    ['ALTER TABLE "job_runs" RENAME COLUMN "lastError" TO "error";', /RENAME/],
    ['ALTER TABLE "job_runs" RENAME TO "runs";', /RENAME/],
    ['ALTER INDEX "job_runs_pkey" RENAME TO "runs_pkey";', /RENAME/],
    ['ALTER TABLE "job_runs" ALTER COLUMN "attempt" TYPE SMALLINT;', /type changed/],
    ['ALTER TABLE "job_runs" ALTER COLUMN "lastError" SET DATA TYPE VARCHAR(100);', /type changed/],
    ['ALTER TABLE "job_runs" ALTER COLUMN "lastError" SET NOT NULL;', /SET NOT NULL on "lastError"/],
    ['ALTER TABLE "job_runs" ADD COLUMN "owner" TEXT NOT NULL;', /NOT NULL column without a default/],
    ['ALTER TABLE "job_runs" ADD COLUMN "a" TEXT, ADD COLUMN "b" INT NOT NULL;', /NOT NULL column without/],
    ['ALTER TABLE "job_runs" DROP CONSTRAINT "job_runs_pkey";', /DROP CONSTRAINT/],
    ['ALTER TABLE "job_runs" ADD CONSTRAINT "c" CHECK (attempt < 10);', /new constraint/],
    ['CREATE UNIQUE INDEX "job_runs_event" ON "job_runs"("eventId");', /unique index on an existing table/],
    ['DROP INDEX "job_runs_status_runAt_idx";', /DROP INDEX/],
    ['DROP TRIGGER "outbox_job_wakeup" ON "outbox_events";', /DROP TRIGGER/],
    ["ALTER TYPE \"DashboardRole\" RENAME VALUE 'reviewer' TO 'analyst';", /renamed or dropped/],
    ['TRUNCATE "job_runs";', /TRUNCATE/],
  ])("refuses %s", (sql, reason) => {
    expect(reasons(sql)).toEqual([expect.stringMatching(reason)]);
  });

  it("accepts what only adds: tables with their triggers, indexes and keys, defaulted or nullable columns", () => {
    const sql = `
      -- An aggregate table kept by a trigger (what a parallel branch may add); a comment may say DROP TABLE.
      CREATE TABLE "agg_buckets" ("clientId" TEXT NOT NULL, "bucket" TIMESTAMPTZ NOT NULL, "n" INT NOT NULL,
        CONSTRAINT "agg_buckets_pkey" PRIMARY KEY ("clientId", "bucket"));
      CREATE UNIQUE INDEX "agg_buckets_key" ON "agg_buckets"("clientId", "bucket");
      ALTER TABLE "agg_buckets" ADD CONSTRAINT "agg_fk" FOREIGN KEY ("clientId") REFERENCES "clients"("id");
      ALTER TABLE "agg_buckets" ADD COLUMN "total" NUMERIC NOT NULL;
      CREATE OR REPLACE FUNCTION agg_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM agg_buckets WHERE false; -- a body is not looked into: DROP TABLE x;
        RETURN NEW;
      END $$;
      DROP TRIGGER IF EXISTS "agg_bump" ON "transactions";
      CREATE TRIGGER "agg_bump" AFTER INSERT ON "transactions" FOR EACH ROW EXECUTE FUNCTION agg_bump();
      CREATE INDEX CONCURRENTLY "transactions_new_idx" ON "transactions"("clientId", "createdAt");
      ALTER TABLE "job_runs" ADD COLUMN "fnVersion" INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE "outbox_events" ADD COLUMN "dispatchedBy" INTEGER;
      ALTER TABLE "job_runs" ALTER COLUMN "lastError" SET DEFAULT '', ALTER COLUMN "lastError" SET NOT NULL;
      ALTER TABLE "job_runs" ALTER COLUMN "output" DROP NOT NULL, ALTER COLUMN "steps" DROP DEFAULT;
      INSERT INTO "outbox_events" (id, name, data) VALUES ('x', 'DROP TABLE job_runs; RENAME', '{}');
      CREATE TEMP TABLE "_moved" AS SELECT 1; DROP TABLE "_moved";
    `;
    expect(checkMigration(NAME, sql)).toEqual([]);
  });

  it("accepts a swap: a table replaced by a partitioned one LIKE it, renamed to its name, the old one dropped", () => {
    const sql = `
      CREATE TABLE "decisions_partitioned" (LIKE "decisions" INCLUDING DEFAULTS INCLUDING COMPRESSION)
        PARTITION BY RANGE ("createdAt");
      INSERT INTO "decisions_partitioned" SELECT * FROM "decisions";
      ALTER TABLE "decisions" RENAME TO "decisions_unpartitioned";
      DROP TABLE "decisions_unpartitioned";
      ALTER TABLE "decisions_partitioned" RENAME TO "decisions";
      ALTER TABLE "decisions" ADD CONSTRAINT "decisions_pkey" PRIMARY KEY ("id", "createdAt");
    `;
    expect(checkMigration(NAME, sql)).toEqual([]);
  });

  it("accepts a swap whose new table has its own storage parameters", () => {
    const sql = `
      CREATE TABLE "transaction_buckets_busy" (LIKE "transaction_buckets" INCLUDING DEFAULTS) WITH (fillfactor = 80);
      INSERT INTO "transaction_buckets_busy" SELECT * FROM "transaction_buckets" WHERE "count" >= 4;
      ALTER TABLE "transaction_buckets" RENAME TO "transaction_buckets_all_days";
      ALTER TABLE "transaction_buckets_busy" RENAME TO "transaction_buckets";
      DROP TABLE "transaction_buckets_all_days";
      ALTER TABLE "transaction_buckets" ADD CONSTRAINT "transaction_buckets_pkey" PRIMARY KEY ("clientId", "dim");
    `;
    expect(checkMigration(NAME, sql)).toEqual([]);
  });

  it("accepts two swaps in one migration (a table referencing the other swapped first), and nothing else on them", () => {
    const swap = (t: string, col: string) => `
      CREATE TABLE "${t}_partitioned" (LIKE "${t}" INCLUDING DEFAULTS) PARTITION BY RANGE ("${col}");
      INSERT INTO "${t}_partitioned" SELECT * FROM "${t}";`;
    const back = (t: string, col: string) => `
      ALTER TABLE "${t}" RENAME TO "${t}_unpartitioned";
      DROP TABLE "${t}_unpartitioned";
      ALTER TABLE "${t}_partitioned" RENAME TO "${t}";
      ALTER TABLE "${t}" ADD CONSTRAINT "${t}_pkey" PRIMARY KEY ("id", "${col}");`;
    const sql = [
      swap("webhook_deliveries", "createdAt"),
      swap("webhook_attempts", "startedAt"),
      back("webhook_attempts", "startedAt"),
      back("webhook_deliveries", "createdAt"),
    ].join("\n");
    expect(checkMigration(NAME, sql)).toEqual([]);
    expect(reasons(sql + `ALTER TABLE "webhook_attempts" DROP COLUMN "error";`)).toEqual([
      expect.stringMatching(/DROP COLUMN/),
    ]);
  });

  it.each([
    [
      "a plain rename, the old table dropped",
      `ALTER TABLE "decisions" RENAME TO "decisions_old"; DROP TABLE "decisions_old";`,
      [/RENAME/, /DROP TABLE/],
    ],
    [
      "a rename to the name of a table not made LIKE it",
      `CREATE TABLE "d2" ("id" TEXT); ALTER TABLE "decisions" RENAME TO "decisions_old";
       ALTER TABLE "d2" RENAME TO "decisions";`,
      [/RENAME/],
    ],
    [
      "a table LIKE it with a column more",
      `CREATE TABLE "d2" (LIKE "decisions", "extra" TEXT); ALTER TABLE "decisions" RENAME TO "decisions_old";
       ALTER TABLE "d2" RENAME TO "decisions";`,
      [/RENAME/],
    ],
    [
      "the new table renamed in before the old one is renamed away",
      `CREATE TABLE "d2" (LIKE "decisions"); ALTER TABLE "d2" RENAME TO "decisions";
       ALTER TABLE "decisions" RENAME TO "decisions_old";`,
      [/RENAME/],
    ],
    [
      "a constraint added before the swap",
      `CREATE TABLE "d2" (LIKE "decisions"); ALTER TABLE "decisions" ADD CONSTRAINT "c" CHECK (true);
       ALTER TABLE "decisions" RENAME TO "decisions_old"; ALTER TABLE "d2" RENAME TO "decisions";`,
      [/new constraint/],
    ],
    [
      "a column dropped after the swap",
      `CREATE TABLE "d2" (LIKE "decisions") PARTITION BY RANGE ("createdAt");
       ALTER TABLE "decisions" RENAME TO "decisions_old"; ALTER TABLE "d2" RENAME TO "decisions";
       ALTER TABLE "decisions" DROP COLUMN "input";`,
      [/DROP COLUMN/],
    ],
    [
      "a check or a unique index added after the swap",
      `CREATE TABLE "d2" (LIKE "decisions") PARTITION BY RANGE ("createdAt");
       ALTER TABLE "decisions" RENAME TO "decisions_old"; ALTER TABLE "d2" RENAME TO "decisions";
       ALTER TABLE "decisions" ADD CONSTRAINT "c" CHECK ("durationMs" < 10);
       CREATE UNIQUE INDEX "u" ON "decisions" ("id", "createdAt");`,
      [/new constraint/, /unique index/],
    ],
    [
      "a primary key added before the swap",
      `CREATE TABLE "d2" (LIKE "decisions") PARTITION BY RANGE ("createdAt");
       ALTER TABLE "decisions" ADD PRIMARY KEY ("id", "createdAt");
       ALTER TABLE "decisions" RENAME TO "decisions_old"; ALTER TABLE "d2" RENAME TO "decisions";`,
      [/new constraint/],
    ],
  ])("refuses what is not a swap: %s", (_, sql, expected) => {
    expect(reasons(sql)).toEqual(expected.map((r) => expect.stringMatching(r)));
  });

  it("accepts a contract migration marked with the expand it finishes and the release that stopped using it", () => {
    const expand = "20261126220000_job_versions";
    const sql = `-- contract: ${expand}; unused since v1.4.0\nDROP TRIGGER "outbox_keep_for_newer_driver" ON "outbox_events";\nDROP FUNCTION "outbox_keep_for_newer_driver"();`;
    expect(checkMigration(NAME, sql, [expand, NAME])).toEqual([]);
    // the marker must name an earlier migration that exists
    expect(reasons(sql, [NAME])).toEqual([expect.stringMatching(/not an earlier migration/)]);
    expect(checkMigration("20261126000000_early", sql, [expand, "20261126000000_early"])).toHaveLength(1);
    // and a release
    expect(reasons(`-- contract: ${expand}; unused since\nDROP TABLE "x";`, [expand])).toEqual([
      expect.stringMatching(/DROP TABLE/),
    ]);
  });

  it("checks only the migrations after the baseline", () => {
    const destructive = 'ALTER TABLE "job_runs" DROP COLUMN "lastError";';
    const problems = checkMigrations([
      { name: MIGRATION_CHECK_BASELINE, sql: destructive },
      { name: NAME, sql: destructive },
    ]);
    expect(problems.map((p) => p.migration)).toEqual([NAME]);
  });

  it("finds nothing to refuse in this repository's migrations", () => {
    const dir = path.resolve("prisma/migrations");
    const migrations = readdirSync(dir)
      .filter((name) => existsSync(path.join(dir, name, "migration.sql")))
      .map((name) => ({ name, sql: readFileSync(path.join(dir, name, "migration.sql"), "utf8") }));
    expect(migrations.filter((m) => m.name > MIGRATION_CHECK_BASELINE).length).toBeGreaterThan(0);
    expect(checkMigrations(migrations)).toEqual([]);
  });
});
