import { execFileSync } from "node:child_process";
import { adminQuery, databaseUrl } from "./pg-admin";

// One migrated template database per run; every test file gets a fresh copy of it.
export default async function setup(): Promise<() => Promise<void>> {
  const TEMPLATE_DB = (process.env.TEST_TEMPLATE_DB ??= `rss_tmpl_${process.pid}_${Date.now().toString(36)}`);
  await adminQuery(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE "${TEMPLATE_DB}"`);
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: databaseUrl(TEMPLATE_DB) },
    stdio: "pipe",
  });
  return async () => {
    await adminQuery(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
  };
}
