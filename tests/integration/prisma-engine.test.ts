// The Prisma CLI must work offline through our Wasm-based schema engine
// (prisma/engine/schema-engine.mjs), against PostgreSQL and against PGlite served
// over the wire protocol. Uses a throwaway schema, config and migrations folder in a
// temp dir, never the project's own prisma/schema.prisma.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PRISMA_CLI = path.join(ROOT, "node_modules/prisma/build/index.js");
const ENGINE = path.join(ROOT, "prisma/engine/schema-engine.mjs");
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const SCHEMA = `
generator client {
  provider = "prisma-client"
  output   = "../generated"
}

datasource db {
  provider = "postgresql"
}

enum Kind {
  person
  company
}

model Account {
  id        Int       @id @default(autoincrement())
  email     String    @unique
  kind      Kind      @default(person)
  createdAt DateTime  @default(now())
  payments  Payment[]
}

model Payment {
  id        String  @id
  amount    Decimal @db.Decimal(18, 2)
  accountId Int
  account   Account @relation(fields: [accountId], references: [id])

  @@index([accountId])
}
`;

// Plain object: the temp dir cannot resolve `prisma/config`.
const CONFIG = `export default {
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL, shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL },
};
`;

const INIT = "20260101000000_init";

type CliResult = {
  code: number;
  stdout: string;
  stderr: string;
};

let dir: string;

// Asynchronous on purpose: the PGlite server lives in this process, so blocking the
// event loop (execFileSync) would deadlock it.
function prisma(args: string[], databaseUrl?: string, projectDir = dir): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.SHADOW_DATABASE_URL;
  Object.assign(env, {
    PRISMA_SCHEMA_ENGINE_BINARY: ENGINE,
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    NO_COLOR: "1",
  });
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [PRISMA_CLI, ...args, "--config", path.join(projectDir, "prisma.config.ts")],
      { cwd: projectDir, env, timeout: 45_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function expectOk(r: CliResult): void {
  if (r.code !== 0) throw new Error(`prisma exited with ${r.code}\n${r.stdout}\n${r.stderr}`);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function tablesIn(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    return rows.map((r) => r.table_name);
  } finally {
    await client.end();
  }
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function urlFor(database: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "prisma-engine-"));
  await mkdir(path.join(dir, "prisma/migrations", INIT), { recursive: true });
  await writeFile(path.join(dir, "prisma/schema.prisma"), SCHEMA);
  await writeFile(path.join(dir, "prisma.config.ts"), CONFIG);
  await writeFile(path.join(dir, "prisma/migrations/migration_lock.toml"), 'provider = "postgresql"\n');
}, 30_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("offline schema engine (prisma/engine/schema-engine.mjs)", () => {
  it("is what the project's prisma.config.ts selects", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, CHECKPOINT_DISABLE: "1" };
    delete env.PRISMA_SCHEMA_ENGINE_BINARY;
    delete env.DATABASE_URL;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [PRISMA_CLI, "--version"],
        { cwd: ROOT, env, timeout: 30_000 },
        (e, stdout, stderr) =>
          e ? reject(new Error(`${e.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
      ),
    );
    expect(out).toMatch(/Schema Engine\s*:\s*schema-engine-cli 0edf323efd1d98336f3f0a68684b56f689b900d3/);
    expect(out).toContain("prisma/engine/schema-engine.mjs, resolved by PRISMA_SCHEMA_ENGINE_BINARY");
  }, 30_000);

  it("migrate diff --from-empty --to-schema --script writes the first migration (no database)", async () => {
    const r = await prisma([
      "migrate",
      "diff",
      "--from-empty",
      "--to-schema",
      "prisma/schema.prisma",
      "--script",
    ]);
    expectOk(r);
    expect(r.stdout).toContain(`CREATE TYPE "Kind" AS ENUM ('person', 'company');`);
    expect(r.stdout).toContain(`CREATE TABLE "Account"`);
    expect(r.stdout).toContain(`CREATE TABLE "Payment"`);
    expect(r.stdout).toContain(`"amount" DECIMAL(18,2) NOT NULL`);
    expect(r.stdout).toMatch(/ALTER TABLE "Payment" ADD CONSTRAINT "Payment_accountId_fkey" FOREIGN KEY/);
    await writeFile(path.join(dir, "prisma/migrations", INIT, "migration.sql"), r.stdout);
  }, 30_000);

  it("prisma generate works offline (no DATABASE_URL)", async () => {
    const r = await prisma(["generate"]);
    expectOk(r);
    expect(existsSync(path.join(dir, "generated/client.ts"))).toBe(true);
    const models = await readFile(path.join(dir, "generated/models/Payment.ts"), "utf8");
    expect(models).toContain("accountId");
  }, 30_000);

  describe("PostgreSQL 15", () => {
    const database = `engine_test_${randomBytes(6).toString("hex")}`;
    const url = urlFor(database);

    beforeAll(async () => {
      await admin(`CREATE DATABASE "${database}"`);
    });
    afterAll(async () => {
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    });

    it("migrate status reports the pending migration, deploy applies it, status is then up to date", async () => {
      const before = await prisma(["migrate", "status"], url);
      expect(before.code).not.toBe(0);
      expect(before.stdout).toContain("Following migration have not yet been applied:");
      expect(before.stdout).toContain(INIT);

      const deploy = await prisma(["migrate", "deploy"], url);
      expectOk(deploy);
      expect(deploy.stdout).toContain("All migrations have been successfully applied.");

      expect(await tablesIn(url)).toEqual(["Account", "Payment", "_prisma_migrations"]);

      const status = await prisma(["migrate", "status"], url);
      expectOk(status);
      expect(status.stdout).toContain("Database schema is up to date!");

      const diff = await prisma(
        ["migrate", "diff", "--from-config-datasource", "--to-schema", "prisma/schema.prisma", "--exit-code"],
        url,
      );
      expect(diff.code).toBe(0);
      expect(diff.stdout).toContain("No difference detected.");
    }, 45_000);

    it("migrate dev --name applies a pending migration, then creates one through a shadow database", async () => {
      // A copy of the project, so the other tests keep the original migrations.
      const devDir = path.join(dir, "dev-project");
      await cp(path.join(dir, "prisma"), path.join(devDir, "prisma"), { recursive: true });
      await cp(path.join(dir, "prisma.config.ts"), path.join(devDir, "prisma.config.ts"));
      const manual = "20260102000000_manual";
      await mkdir(path.join(devDir, "prisma/migrations", manual));
      await writeFile(
        path.join(devDir, "prisma/migrations", manual, "migration.sql"),
        'CREATE TABLE "Note" ("id" INTEGER NOT NULL, CONSTRAINT "Note_pkey" PRIMARY KEY ("id"));\n',
      );
      await writeFile(
        path.join(devDir, "prisma/schema.prisma"),
        SCHEMA.replace(
          "  createdAt DateTime  @default(now())",
          "  createdAt DateTime  @default(now())\n  nickname  String?",
        ) + "\nmodel Note {\n  id   Int     @id\n  text String?\n}\n",
      );

      const shadowDbs = `SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'`;
      const shadowsBefore = await query<{ datname: string }>(ADMIN_URL, shadowDbs);

      const dev = await prisma(["migrate", "dev", "--name", "add_nickname"], url, devDir);
      expectOk(dev);
      expect(dev.stdout).toContain(manual);
      expect(dev.stdout).toContain("Your database is now in sync with your schema.");

      const created = (await readdir(path.join(devDir, "prisma/migrations"))).filter((d) =>
        d.endsWith("_add_nickname"),
      );
      expect(created).toHaveLength(1);
      const sql = await readFile(
        path.join(devDir, "prisma/migrations", created[0]!, "migration.sql"),
        "utf8",
      );
      expect(sql).toContain(`ALTER TABLE "Account" ADD COLUMN     "nickname" TEXT;`);
      expect(sql).toContain(`ALTER TABLE "Note" ADD COLUMN     "text" TEXT;`);

      const columns = await query<{ column_name: string }>(
        url,
        `SELECT column_name FROM information_schema.columns WHERE table_name IN ('Account', 'Note') ORDER BY 1`,
      );
      expect(columns.map((c) => c.column_name)).toEqual(expect.arrayContaining(["nickname", "text"]));
      // The temporary shadow database was dropped again.
      const shadowsAfter = await query<{ datname: string }>(ADMIN_URL, shadowDbs);
      expect(shadowsAfter.filter((a) => !shadowsBefore.some((b) => b.datname === a.datname))).toEqual([]);
    }, 45_000);
  });

  describe("PGlite over the wire protocol (pglite-socket)", () => {
    let db: PGlite;
    let server: PGLiteSocketServer;
    let url: string;

    beforeAll(async () => {
      db = await PGlite.create(path.join(dir, "pgdata"));
      server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 10 });
      await server.start();
      const port = Number(server.getServerConn().split(":").pop());
      url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    }, 30_000);
    afterAll(async () => {
      await server?.stop();
      await db?.close();
    });

    it("migrate deploy applies the migration and status is up to date", async () => {
      const deploy = await prisma(["migrate", "deploy"], url);
      expectOk(deploy);
      expect(deploy.stdout).toContain(INIT);
      expect(deploy.stdout).toContain("All migrations have been successfully applied.");

      expect(await tablesIn(url)).toEqual(["Account", "Payment", "_prisma_migrations"]);

      const status = await prisma(["migrate", "status"], url);
      expectOk(status);
      expect(status.stdout).toContain("Database schema is up to date!");

      // Introspection of PostgreSQL 18 (PGlite) must match the schema.
      const diff = await prisma(
        ["migrate", "diff", "--from-config-datasource", "--to-schema", "prisma/schema.prisma", "--exit-code"],
        url,
      );
      expect(diff.code).toBe(0);
      expect(diff.stdout).toContain("No difference detected.");
    }, 45_000);

    it("db execute runs a script; migrate reset --force empties and re-migrates", async () => {
      const exec = await prisma(
        [
          "db",
          "execute",
          "--file",
          await writeScript(`INSERT INTO "Account" ("email") VALUES ('a;b@example.test');`),
        ],
        url,
      );
      expectOk(exec);
      expect(await query(url, `SELECT email FROM "Account"`)).toEqual([{ email: "a;b@example.test" }]);

      const reset = await prisma(["migrate", "reset", "--force"], url);
      expectOk(reset);
      expect(await query(url, `SELECT email FROM "Account"`)).toEqual([]);
      expect(await tablesIn(url)).toEqual(["Account", "Payment", "_prisma_migrations"]);
    }, 45_000);
  });
});

async function writeScript(sql: string): Promise<string> {
  const file = path.join(dir, `script-${randomBytes(4).toString("hex")}.sql`);
  await writeFile(file, sql);
  return file;
}
