import { readdirSync } from "node:fs";
import path from "node:path";
import { pgPool } from "@/lib/db";
import { env } from "@/lib/env";
import { jobDriverStatus } from "@/lib/jobs/start";
import { isDraining } from "@/lib/ops/lifecycle";

export type TReadiness = {
  ready: boolean;
  checks: {
    database: "ok" | "unreachable";
    migrations: "ok" | "pending" | "unknown" | "unchecked";
    jobDriver: "running" | "off" | "not running";
    shutdown: "no" | "draining";
  };
};

const PING_TIMEOUT_MS = 2_000;
/** A load balancer may poll every second per instance: one database round trip per process at most this often. */
const PING_CACHE_MS = 1_000;

type TCache = {
  ping: { at: number; result: Promise<boolean> } | null;
  /** Once every migration of this build is applied it stays so for the life of the process. */
  migrationsApplied: boolean;
  migrationsCheckedAt: number;
};
const cache: TCache = ((globalThis as { rssReadiness?: TCache }).rssReadiness ??= {
  ping: null,
  migrationsApplied: false,
  migrationsCheckedAt: 0,
});

function withTimeout<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function pingDatabase(): Promise<boolean> {
  const now = Date.now();
  if (cache.ping && now - cache.ping.at < PING_CACHE_MS) return cache.ping.result;
  const result = withTimeout(
    pgPool()
      .query("SELECT 1")
      .then(() => true)
      .catch(() => false),
    PING_TIMEOUT_MS,
    false,
  );
  cache.ping = { at: now, result };
  return result;
}

/** The migrations this build ships (prisma/migrations), or null when the folder is not deployed. */
function shippedMigrations(): string[] | null {
  try {
    return readdirSync(path.resolve("prisma/migrations"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return null;
  }
}

async function migrationsState(): Promise<TReadiness["checks"]["migrations"]> {
  if (cache.migrationsApplied) return "ok";
  const shipped = shippedMigrations();
  // a deployment without the migrations folder cannot tell; the startup check still ran
  if (!shipped) return "unchecked";
  const { rows } = await pgPool().query<{ name: string }>(
    `SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((r) => r.name));
  cache.migrationsApplied = shipped.every((name) => applied.has(name));
  return cache.migrationsApplied ? "ok" : "pending";
}

/**
 * Whether this process should receive traffic: the database answers, every migration of this build
 * is applied, the job driver runs where it is configured to, and the process is not shutting down.
 * No tenant data, no secrets: only which check failed.
 */
export async function checkReadiness(): Promise<TReadiness> {
  const draining = isDraining();
  const database = (await pingDatabase()) ? "ok" : "unreachable";
  const migrations =
    database === "ok"
      ? await withTimeout(
          migrationsState().catch(() => "unknown" as const),
          PING_TIMEOUT_MS,
          "unknown" as const,
        )
      : "unknown";
  const driver = jobDriverStatus();
  const jobDriver = env.JOB_DRIVER === "off" ? "off" : driver === "running" ? "running" : "not running";
  const checks: TReadiness["checks"] = {
    database,
    migrations,
    jobDriver,
    shutdown: draining ? "draining" : "no",
  };
  const ready =
    !draining &&
    database === "ok" &&
    migrations !== "pending" &&
    migrations !== "unknown" &&
    jobDriver !== "not running";
  return { ready, checks };
}
