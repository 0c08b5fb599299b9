import { z } from "zod";
import { parseTrustedProxies } from "@/lib/auth/client-address";

const positiveInt = (what: string) =>
  z.coerce
    .number({ error: `must be ${what}` })
    .int(`must be ${what}`)
    .positive(`must be ${what}`);

const url = (schemes: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return schemes.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a ${schemes.map((s) => s.replace(":", "://")).join(" or ")} URL`,
  );

// The one place that reads process.env. Every message completes the sentence "<VARIABLE> ...".
export const ZEnv = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"], { error: "must be development, production or test" })
    .default("development"),
  DATABASE_URL: url(["postgresql:", "postgres:"]).optional(),
  DATABASE_POOL_SIZE: positiveInt("a whole number of connections above 0").default(10),
  // "off": every statement is sent unnamed (parsed per execution). For a database session shared by
  // several connections (the embedded database, a transaction-mode connection pooler), where a name
  // one connection prepared is already taken, or already gone, for the next.
  DATABASE_PREPARED_STATEMENTS: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  PORT: positiveInt("a TCP port number").max(65_535, "must be a TCP port number").default(3000),
  APP_URL: url(["http:", "https:"]).optional(),
  // When set, next-auth builds its URLs from it; unset, from the host the request came to.
  NEXTAUTH_URL: url(["http:", "https:"]).optional(),
  // Secret for session cookies and for deriving the at-rest encryption key of webhook secrets.
  NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters long").optional(),
  WEBHOOK_SECRET_KEY: z.string().min(16, "must be at least 16 characters long").optional(),
  RATE_LIMIT_PER_SECOND: z.coerce
    .number({ error: "must be a number of requests per second above 0" })
    .positive("must be a number of requests per second above 0")
    .default(1000),
  WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .refine(
      (raw) => raw.trim() === "" || raw.split(",").every((p) => p.trim() !== "" && Number(p) >= 0),
      "must be comma-separated non-negative milliseconds, for example 30000,120000",
    )
    .optional(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .optional()
    .transform((v) => v === "true" || v === "1"),
  WEBHOOK_TIMEOUT_MS: positiveInt("a whole number of milliseconds above 0").default(10_000),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_BASE_URL: url(["http:", "https:"]).optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  // Set to "off" to stop the in-process job driver (for example in a web-only replica).
  JOB_DRIVER: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  // "off": the driver only polls instead of LISTENing for new work on a connection of its own (the
  // embedded database, which serves one connection, sets it).
  JOB_DRIVER_LISTEN: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  // "debug" also logs what is routine but sometimes useful (e.g. a client that closed its connection mid-request).
  LOG_LEVEL: z.enum(["debug", "info"], { error: "must be debug or info" }).default("info"),
  // Function runs in flight per process (the in-process driver): more shares its statements better.
  JOB_DRIVER_CONCURRENCY: positiveInt("a whole number of runs above 0")
    .max(256, "must be at most 256")
    .default(32),
  // Connections of the background work's own pool (lib/db.ts jobsPool), per process.
  JOB_DRIVER_POOL_SIZE: positiveInt("a whole number of connections above 0").default(4),
  // The sweeper (lib/jobs/sweep-deliveries.ts): how often it looks for webhook deliveries left pending
  // by a failed run (default 60 s), and how long past due one must be before it is requested again (5 min).
  JOB_SWEEP_INTERVAL_MS: positiveInt("a whole number of milliseconds above 0").optional(),
  JOB_SWEEP_GRACE_MS: positiveInt("a whole number of milliseconds above 0").optional(),
  // Unset: /metrics answers 404. Set: /metrics answers Prometheus text to "Authorization: Bearer <token>".
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters long").optional(),
  // SIGTERM: how long a server process may take to answer what it accepted and finish its job runs
  // before it hands back what is left and exits.
  SHUTDOWN_GRACE_MS: positiveInt("a whole number of milliseconds above 0").default(25_000),
  // SIGTERM: how long readiness answers 503 while requests are still served, before the process stops
  // accepting (the time the load balancer in front takes to take the instance out, plus one check interval;
  // 0 behind none).
  SHUTDOWN_DELAY_MS: z.coerce
    .number({ error: "must be a whole number of milliseconds, 0 or more" })
    .int("must be a whole number of milliseconds, 0 or more")
    .min(0, "must be a whole number of milliseconds, 0 or more")
    .default(0),
  // Reverse proxies whose X-Forwarded-For is believed (addresses and CIDRs, comma-separated); none by default.
  TRUSTED_PROXIES: z
    .string()
    .refine((raw) => {
      try {
        parseTrustedProxies(raw);
        return true;
      } catch {
        return false;
      }
    }, "must be comma-separated IP addresses or CIDR ranges, for example 10.0.0.1,192.168.0.0/16")
    .optional(),
  // How long a sign-in lock (after repeated wrong passwords) lasts before it lifts by itself.
  SIGN_IN_LOCK_MINUTES: positiveInt("a whole number of minutes above 0").default(15),
});

export type TEnv = z.infer<typeof ZEnv>;

/** One sentence per misconfigured variable ("NEXTAUTH_SECRET must be at least 16 characters long"). */
export function configurationErrors(source: NodeJS.ProcessEnv): string[] {
  const parsed = ZEnv.safeParse(blankAsUnset(source));
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
}

// An empty variable (`FOO=`) means unset, as in most shells' and compose files' intent.
export function blankAsUnset(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "",
    ),
  );
}
