import pg from "pg";

// Administrative connection to the test PostgreSQL server (creates and drops test databases).
export const ADMIN_URL =
  process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
// Unique per run (set by the global set-up, inherited by the workers), so parallel runs never share it.
export function templateDb(): string {
  return process.env.TEST_TEMPLATE_DB ?? "rss_test_template";
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
