// A bench's database: migrated as `npm start` would (prisma migrate deploy), or dropped and made afresh first.
import { spawnSync } from "node:child_process";
import pg from "pg";

/** Applies the migrations to the database at `url`. */
export function migrateDatabase(url: string): void {
  const run = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: "pipe",
  });
  if (run.status !== 0) throw new Error(`migrate failed: ${run.stderr.toString()}`);
}

/** Drops the database at `url` (connections and all), creates it again and migrates it. */
export async function freshDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  migrateDatabase(url);
}
