// A fresh, migrated and seeded database for the browser tests; run by the web server command before
// `next start`, so the server never sees the database being dropped and recreated.
import { execFileSync } from "node:child_process";
import pg from "pg";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_e2e";
const name = new URL(url).pathname.slice(1);
const admin = new URL(url);
admin.pathname = "/postgres";
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
await client.query(`CREATE DATABASE "${name}"`);
await client.end();
const env = { ...process.env, DATABASE_URL: url, EMBEDDED_DATA_DIR: "test-results/e2e-data" };
execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "migrate", "deploy"], {
  env,
  stdio: "pipe",
});
execFileSync("npx", ["tsx", "scripts/seed.ts"], { env, stdio: "pipe" });
execFileSync("npx", ["tsx", "e2e/seed-hostile.ts"], { env, stdio: "pipe" });
