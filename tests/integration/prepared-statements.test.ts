// Named (prepared) statements are bounded per connection (lib/db-prepared.ts): a connection that has
// run more distinct statement texts than the cap still answers every one correctly, and the backend's
// pg_prepared_statements on that connection never holds more than the cap.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { pgPool } from "@/lib/db";
import { capPreparedStatements, PREPARED_STATEMENTS_PER_CONNECTION } from "@/lib/db-prepared";
import { prepared } from "@/lib/screening/sql/statements";

type TQueryable = { query: pg.Pool["query"] };

async function preparedCount(db: TQueryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'rss\\_%'`,
  );
  return rows[0]!.n;
}

/** A distinct text per i, answering i * 2 + the parameter. */
async function run(db: TQueryable, i: number, param = 1): Promise<number> {
  const { rows } = await db.query<{ v: number }>(
    prepared(`SELECT ${i} * 2 + $1::int AS v /* variant ${i} */`, [param]),
  );
  return rows[0]!.v;
}

const standalone: pg.Client[] = [];
async function cappedClient(cap: number): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  capPreparedStatements(client, cap);
  standalone.push(client);
  return client;
}

afterAll(async () => {
  await Promise.all(standalone.map((c) => c.end()));
});

describe("prepared statements per connection", () => {
  it("a pooled connection that ran more distinct texts than the cap answers correctly and stays at the cap", async () => {
    const db = await pgPool().connect();
    try {
      const total = PREPARED_STATEMENTS_PER_CONNECTION + 50;
      for (let i = 0; i < total; i++) expect(await run(db, i, i)).toBe(i * 3);
      expect(await preparedCount(db)).toBeLessThanOrEqual(PREPARED_STATEMENTS_PER_CONNECTION);
      // the earliest ones were deallocated: they are prepared again and still answer
      for (let i = 0; i < 10; i++) expect(await run(db, i, 5)).toBe(i * 2 + 5);
      // the most recent ones are still prepared (not parsed again)
      for (let i = total - 10; i < total; i++) expect(await run(db, i, 0)).toBe(i * 2);
      expect(await preparedCount(db)).toBeLessThanOrEqual(PREPARED_STATEMENTS_PER_CONNECTION);
    } finally {
      db.release();
    }
  });

  it("keeps the most recently used statements and re-prepares an evicted one, also inside a transaction", async () => {
    const client = await cappedClient(3);
    for (const i of [1, 2, 3]) expect(await run(client, i)).toBe(i * 2 + 1);
    expect(await run(client, 1)).toBe(3); // 1 is now the most recent: 2 goes first
    expect(await run(client, 4)).toBe(9);
    const { rows } = await client.query<{ statement: string }>(
      `SELECT statement FROM pg_prepared_statements WHERE name LIKE 'rss\\_%'`,
    );
    expect(rows.map((r) => /variant (\d+)/.exec(r.statement)![1]).sort()).toEqual(["1", "3", "4"]);

    await client.query("BEGIN");
    for (const i of [5, 2, 6, 1]) expect(await run(client, i)).toBe(i * 2 + 1);
    await client.query("COMMIT");
    expect(await preparedCount(client)).toBe(3);
    // the pool's own form (a callback) and an evicted name used right after its DEALLOCATE
    for (const i of [7, 8, 9, 5, 7, 2]) {
      const v = await new Promise<number>((resolve, reject) =>
        client.query<{ v: number }>(
          prepared(`SELECT ${i} * 2 + $1::int AS v /* variant ${i} */`, [1]),
          (err: Error | null, res?: pg.QueryResult<{ v: number }>) =>
            err ? reject(err) : resolve(res!.rows[0]!.v),
        ),
      );
      expect(v).toBe(i * 2 + 1);
    }
    expect(await preparedCount(client)).toBe(3);
  });

  it("a DEALLOCATE refused in an aborted transaction leaves the connection usable", async () => {
    const client = await cappedClient(2);
    expect(await run(client, 1)).toBe(3);
    expect(await run(client, 2)).toBe(5);
    await client.query("BEGIN");
    await expect(client.query("SELECT 1 / 0")).rejects.toThrow();
    // the eviction of 1 fails (transaction aborted), and so does this query
    await expect(run(client, 3)).rejects.toThrow();
    await client.query("ROLLBACK");
    for (const i of [1, 2, 3, 4, 1, 5]) expect(await run(client, i)).toBe(i * 2 + 1);
    expect(await preparedCount(client)).toBeLessThanOrEqual(2);
  });

  it("a name already taken or gone on the session (another connection's, on a shared session) recovers", async () => {
    const client = await cappedClient(10);
    const statement = prepared(`SELECT 20 * 2 + $1::int AS v /* taken */`, [1]);
    // what another connection to the same session leaves behind: the name, unknown to this client
    await client.query(`PREPARE "${statement.name}" (int) AS SELECT 0 + $1 AS v`);
    expect((await client.query<{ v: number }>(statement)).rows[0]!.v).toBe(41);
    expect((await client.query<{ v: number }>(statement)).rows[0]!.v).toBe(41);
    // inside a transaction the failure aborts it; the next transaction runs
    const other = prepared(`SELECT 30 * 2 + $1::int AS v /* taken */`, [1]);
    await client.query(`PREPARE "${other.name}" (int) AS SELECT 0 + $1 AS v`);
    await client.query("BEGIN");
    await expect(client.query(other)).rejects.toThrow(/already exists/);
    await client.query("ROLLBACK");
    await client.query("BEGIN");
    expect((await client.query<{ v: number }>(other)).rows[0]!.v).toBe(61);
    await client.query("COMMIT");
    // gone: deallocated behind this client's back
    const gone = prepared(`SELECT 40 * 2 + $1::int AS v /* gone */`, [1]);
    expect((await client.query<{ v: number }>(gone)).rows[0]!.v).toBe(81);
    await client.query(`DEALLOCATE "${gone.name}"`);
    expect((await client.query<{ v: number }>(gone)).rows[0]!.v).toBe(81);
    expect((await client.query<{ v: number }>(gone)).rows[0]!.v).toBe(81);
  });

  it("with named statements off, nothing is prepared", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    standalone.push(client);
    capPreparedStatements(client, 10, { named: false });
    for (const i of [1, 2, 1]) expect(await run(client, i)).toBe(i * 2 + 1);
    expect(await preparedCount(client)).toBe(0);
  });
});
