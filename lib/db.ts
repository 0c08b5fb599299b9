import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { capPreparedStatements } from "@/lib/db-prepared";
import { env } from "@/lib/env";

// One Prisma client per process (create-t3-app's globalThis singleton, which also survives hot reloads),
// created on first use so that importing this module (for example during `next build`) needs no database.
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Every new connection of both pools runs in UTC before its first query: Prisma's pg adapter reads a
 * `timestamptz` by replacing the offset PostgreSQL prints with +00:00 (prisma/orm#26786), so on a server
 * whose `timezone` is not UTC every time read through Prisma would be off by the offset. A `SET` rather
 * than the `options` startup parameter, which PgBouncer refuses or ignores; PgBouncer keeps a client's
 * TimeZone on whichever server connection it hands it.
 */
export const SESSION_SETUP = "SET TIME ZONE 'UTC'";

async function sessionInUtc(c: pg.ClientBase): Promise<void> {
  await c.query(SESSION_SETUP);
}

// pg-pool waits for the promise its onConnect hook returns before the connection's first query (its
// types say void); a failed SET fails that connection's checkout.
const onConnect = sessionInUtc as (c: pg.ClientBase) => void;

/** The screenings' named statements: a bounded number per connection (lib/db-prepared.ts). */
function capStatements(c: pg.PoolClient): void {
  capPreparedStatements(c, undefined, { named: env.DATABASE_PREPARED_STATEMENTS === "on" });
}

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; pgPool?: pg.Pool };

function client(): PrismaClient {
  if (globalForPrisma.prisma) return globalForPrisma.prisma;
  const connectionString = env.DATABASE_URL ?? process.env.DATABASE_URL;
  if (!connectionString) {
    throw new Error(
      "DATABASE_URL is not set. Use `npm run dev` / `npm start`, which start the embedded database, or set DATABASE_URL.",
    );
  }
  // One pool for both: Prisma and the raw-SQL screening path (lib/screening) share the connection
  // budget (the embedded database serves a single connection).
  // A database that does not answer (not even a refusal) fails requests after CONNECT_TIMEOUT_MS
  // (503, lib/http/db-unavailable.ts) instead of holding them forever.
  const pool = new pg.Pool({
    connectionString,
    max: env.DATABASE_POOL_SIZE,
    allowExitOnIdle: true,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    onConnect,
  });
  // An idle connection dropped by the server (restart, DROP DATABASE ... FORCE) is replaced on next use.
  pool.on("error", () => undefined);
  pool.on("connect", capStatements);
  globalForPrisma.pgPool = pool;
  const adapter = new PrismaPg(pool);
  globalForPrisma.prisma = new PrismaClient({ adapter });
  return globalForPrisma.prisma;
}

export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const target = client();
    const value: unknown = Reflect.get(target, prop, target);
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  },
});

/** Time limits of an interactive `prisma.$transaction` that does a screening's worth of work. */
export const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

/** The pg pool under Prisma, for the raw-SQL screenings (lib/screening). */
export function pgPool(): pg.Pool {
  client();
  return globalForPrisma.pgPool!;
}

const globalForJobs = globalThis as unknown as { jobsPool?: pg.Pool };

/**
 * The background work's own small pool (`JOB_DRIVER_POOL_SIZE`, default 4): the job driver's queue
 * statements and the webhook delivery's reads and writes neither wait behind the screenings for a
 * connection nor take theirs. On the embedded database (one connection) it is the shared pool.
 */
export function jobsPool(): pg.Pool {
  if (env.DATABASE_POOL_SIZE <= 1) return pgPool();
  if (globalForJobs.jobsPool) return globalForJobs.jobsPool;
  const connectionString = env.DATABASE_URL ?? process.env.DATABASE_URL;
  const pool = new pg.Pool({
    connectionString,
    max: env.JOB_DRIVER_POOL_SIZE,
    allowExitOnIdle: true,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    onConnect,
  });
  pool.on("error", () => undefined);
  pool.on("connect", capStatements);
  globalForJobs.jobsPool = pool;
  return pool;
}
