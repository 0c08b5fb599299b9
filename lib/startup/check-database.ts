import pg from "pg";

/** The connection string with its password replaced by ****, for messages and logs. */
export function maskDatabaseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = "****";
    return url.toString();
  } catch {
    return "(not a URL)";
  }
}

function reason(error: unknown): string {
  const e = error as { code?: string; message?: string };
  if (e.code === "ECONNREFUSED") return "connection refused (is PostgreSQL running and listening there?)";
  if (e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") return "the host name does not resolve";
  if (e.code === "ETIMEDOUT" || /timeout/i.test(e.message ?? "")) return "no answer within 5 seconds";
  if (e.code === "28P01" || e.code === "28000") return "the user name or password was refused";
  if (e.code === "3D000") return "the database does not exist";
  return e.message ?? String(error);
}

/**
 * Opens one connection and runs `SELECT 1`: null when it works, otherwise one sentence naming
 * DATABASE_URL, the host and port, the masked URL and the reason.
 */
export async function checkDatabase(raw: string, timeoutMs = 5_000): Promise<string | null> {
  let host = "?";
  let port = "5432";
  try {
    const url = new URL(raw);
    host = url.hostname || (url.searchParams.get("host") ?? "localhost");
    port = url.port || "5432";
  } catch {
    return "DATABASE_URL must be a postgresql:// URL";
  }
  const client = new pg.Client({ connectionString: raw, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return `DATABASE_URL: cannot connect to PostgreSQL at ${host}:${port} (${maskDatabaseUrl(raw)}): ${reason(error)}`;
  } finally {
    await client.end().catch(() => {});
  }
}
