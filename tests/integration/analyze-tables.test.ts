import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeStaleTables } from "@/lib/jobs/analyze-tables";

// Planner statistics where no autovacuum runs: the embedded database (PGlite, a single-user backend,
// served over the wire as `npm run dev` does), and PostgreSQL only when its autovacuum is off.

async function lastAnalyzed(pool: pg.Pool, table: string) {
  const { rows } = await pool.query<{ last_analyze: Date | null; n_mod_since_analyze: string }>(
    `SELECT last_analyze, n_mod_since_analyze FROM pg_stat_user_tables WHERE relname = $1`,
    [table],
  );
  return rows[0];
}

describe("ANALYZE without autovacuum", () => {
  describe("the embedded database (PGlite over pglite-socket)", () => {
    let db: PGlite;
    let server: PGLiteSocketServer;
    let pool: pg.Pool;

    beforeAll(async () => {
      db = await PGlite.create();
      server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 4 });
      await server.start();
      const port = Number(server.getServerConn().split(":").pop());
      pool = new pg.Pool({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`, max: 1 });
    }, 30_000);
    afterAll(async () => {
      await pool?.end();
      await server?.stop();
      await db?.close();
    });

    it("analyzes the tables changed past autovacuum's threshold, and only those, once", async () => {
      // PGlite reports autovacuum on, but nothing runs it.
      expect((await pool.query(`SHOW autovacuum`)).rows[0]).toEqual({ autovacuum: "on" });
      await pool.query(`CREATE TABLE decisions (id int PRIMARY KEY, level text)`);
      await pool.query(`CREATE TABLE users (id int PRIMARY KEY)`);
      await pool.query(`INSERT INTO decisions SELECT g, 'high' FROM generate_series(1, 2000) g`);
      await pool.query(`INSERT INTO users SELECT g FROM generate_series(1, 10) g`);

      expect(await analyzeStaleTables(pool)).toEqual(["public.decisions"]);
      expect((await lastAnalyzed(pool, "decisions"))?.last_analyze).toBeInstanceOf(Date);
      expect((await lastAnalyzed(pool, "users"))?.last_analyze).toBeNull();
      const { rows } = await pool.query<{ reltuples: number }>(
        `SELECT reltuples FROM pg_class WHERE relname = 'decisions'`,
      );
      expect(rows[0]?.reltuples).toBe(2000);

      // Unchanged since: nothing to do. 10 % more rows (plus autovacuum's 50) again analyze it.
      expect(await analyzeStaleTables(pool)).toEqual([]);
      await pool.query(`INSERT INTO decisions SELECT g, 'low' FROM generate_series(2001, 2100) g`);
      expect(await analyzeStaleTables(pool)).toEqual([]);
      await pool.query(`INSERT INTO decisions SELECT g, 'low' FROM generate_series(2101, 2300) g`);
      expect(await analyzeStaleTables(pool)).toEqual(["public.decisions"]);
    });
  });

  describe("PostgreSQL", () => {
    let pool: pg.Pool;
    beforeAll(() => {
      pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    });
    afterAll(async () => {
      await pool.end();
    });

    it("analyzes only when autovacuum is off", async () => {
      const autovacuum = (await pool.query<{ autovacuum: string }>(`SHOW autovacuum`)).rows[0]?.autovacuum;
      await pool.query(`CREATE TABLE analyze_probe (id int PRIMARY KEY)`);
      await pool.query(`INSERT INTO analyze_probe SELECT g FROM generate_series(1, 2000) g`);
      // The counters reach the shared statistics when the session next reports them.
      await pool.query(`SELECT pg_stat_force_next_flush()`);
      await pool.query(`SELECT 1`);
      expect((await lastAnalyzed(pool, "analyze_probe"))?.n_mod_since_analyze).toBe("2000");

      const analyzed = await analyzeStaleTables(pool);
      if (autovacuum === "off") {
        expect(analyzed).toContain("public.analyze_probe");
        expect((await lastAnalyzed(pool, "analyze_probe"))?.last_analyze).toBeInstanceOf(Date);
      } else {
        expect(analyzed).toEqual([]);
        expect((await lastAnalyzed(pool, "analyze_probe"))?.last_analyze).toBeNull();
      }
    });
  });
});
