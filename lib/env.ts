import { z } from "zod";
import { localSecrets } from "@/lib/local-secrets";

// The one place that reads process.env.
const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  PORT: z.coerce.number().int().positive().default(3000),
  APP_URL: z.string().url().optional(),
  // Secret for session cookies and for deriving the at-rest encryption key of webhook secrets.
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  WEBHOOK_SECRET_KEY: z.string().min(16).optional(),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(1000),
  WEBHOOK_RETRY_DELAYS_MS: z.string().optional(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1"),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_BASE_URL: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  // Set to "false" to stop the in-process job driver (for example in a web-only replica).
  JOB_DRIVER: z.enum(["on", "off"]).default("on"),
  // "off": the driver only polls instead of LISTENing for new work on a connection of its own (the
  // embedded database, which serves one connection, sets it).
  JOB_DRIVER_LISTEN: z.enum(["on", "off"]).default("on"),
  // Connections of the background work's own pool (lib/db.ts jobsPool), per process.
  JOB_DRIVER_POOL_SIZE: z.coerce.number().int().positive().default(4),
});

export type TEnv = z.infer<typeof ZEnv>;

function parseEnv(): TEnv {
  const parsed = ZEnv.parse(process.env);
  if (!parsed.NEXTAUTH_SECRET || !parsed.WEBHOOK_SECRET_KEY) {
    const local = localSecrets();
    parsed.NEXTAUTH_SECRET ??= local.NEXTAUTH_SECRET;
    parsed.WEBHOOK_SECRET_KEY ??= local.WEBHOOK_SECRET_KEY;
    // next-auth reads its secret from the environment too.
    process.env.NEXTAUTH_SECRET ??= parsed.NEXTAUTH_SECRET;
    if (parsed.NODE_ENV === "production")
      console.warn(
        "NEXTAUTH_SECRET / WEBHOOK_SECRET_KEY not set: using generated secrets from .data/secrets.json",
      );
  }
  return parsed;
}

export const env: TEnv = parseEnv();

export const isProduction = env.NODE_ENV === "production";
