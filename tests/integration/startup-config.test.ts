import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

// `npm start` (scripts/start.ts) with one misconfiguration each: it must stop before serving, name
// the variable and what it needs, and exit non-zero. The database is the test's own, so only the
// variable under test is wrong.

type TRun = { code: number | null; stderr: string; stdout: string };

function start(overrides: Record<string, string>): Promise<TRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "3309",
    NEXTAUTH_SECRET: "a-valid-nextauth-secret-0123456789",
    WEBHOOK_SECRET_KEY: "a-valid-webhook-secret-key-0123456789",
    ...overrides,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // a start that got past the checks would serve forever: stop it, the test then fails on the code
    const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

const CASES: Array<[string, Record<string, string>, RegExp]> = [
  [
    "a short NEXTAUTH_SECRET",
    { NEXTAUTH_SECRET: "short" },
    /NEXTAUTH_SECRET must be at least 16 characters long/,
  ],
  [
    "a short WEBHOOK_SECRET_KEY",
    { WEBHOOK_SECRET_KEY: "0123456789" },
    /WEBHOOK_SECRET_KEY must be at least 16 characters long/,
  ],
  ["a PORT that is not a number", { PORT: "eighty" }, /PORT must be a TCP port number/],
  ["a PORT out of range", { PORT: "70000" }, /PORT must be a TCP port number/],
  [
    "a DATABASE_URL that is not PostgreSQL",
    { DATABASE_URL: "mysql://db/x" },
    /DATABASE_URL must be a postgresql/,
  ],
  [
    "a DATABASE_POOL_SIZE of zero",
    { DATABASE_POOL_SIZE: "0" },
    /DATABASE_POOL_SIZE must be a whole number of connections above 0/,
  ],
  [
    "a RATE_LIMIT_PER_SECOND that is not a number",
    { RATE_LIMIT_PER_SECOND: "lots" },
    /RATE_LIMIT_PER_SECOND must be a number of requests per second above 0/,
  ],
  [
    "a malformed WEBHOOK_RETRY_DELAYS_MS",
    { WEBHOOK_RETRY_DELAYS_MS: "30s,2m" },
    /WEBHOOK_RETRY_DELAYS_MS must be comma-separated non-negative milliseconds/,
  ],
  [
    "a WEBHOOK_ALLOW_PRIVATE_TARGETS that is not a boolean",
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: "yes" },
    /WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/,
  ],
  [
    "a negative WEBHOOK_TIMEOUT_MS",
    { WEBHOOK_TIMEOUT_MS: "-5" },
    /WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds above 0/,
  ],
  ["an unknown JOB_DRIVER", { JOB_DRIVER: "maybe" }, /JOB_DRIVER must be on or off/],
  ["a NEXTAUTH_URL that is not a URL", { NEXTAUTH_URL: "dashboard.example" }, /NEXTAUTH_URL must be a http/],
  [
    "an INNGEST_BASE_URL that is not a URL",
    { INNGEST_BASE_URL: "inngest:8288" },
    /INNGEST_BASE_URL must be a http/,
  ],
];

describe("start-up refuses a broken configuration", () => {
  it.each(CASES)("%s: names the variable and exits 1", async (_name, overrides, message) => {
    const run = await start(overrides);
    expect(run.stderr).toMatch(/Configuration error, not starting/);
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(/Ready/);
  });

  it("names the host and port of an unreachable DATABASE_URL, with the password masked", async () => {
    const run = await start({ DATABASE_URL: "postgresql://risk:hunter2-secret@127.0.0.1:1/risk" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:1 (postgresql://risk:****@127.0.0.1:1/risk): connection refused",
    );
    expect(run.stderr).not.toContain("hunter2");
  });

  it("says so when the database does not exist", async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = "/rss_no_such_database";
    const run = await start({ DATABASE_URL: url.toString() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /DATABASE_URL: cannot connect to PostgreSQL at 127\.0\.0\.1:5432 .*the database does not exist/,
    );
  });
});
