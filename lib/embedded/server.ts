import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

// The embedded database: PGlite (PostgreSQL in Wasm) on disk under .data/, served over the
// PostgreSQL wire protocol so that everything above the driver is the same code as with a real server.

export const DATA_DIR = path.resolve(process.env.EMBEDDED_DATA_DIR ?? ".data");
const STATE_FILE = path.join(DATA_DIR, "embedded.json");

export type TEmbeddedDatabase = { url: string; stop: () => Promise<void> };

function urlFor(port: number): string {
  return `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}

export async function startEmbeddedDatabase(opts: { port?: number } = {}): Promise<TEmbeddedDatabase> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  mkdirSync(DATA_DIR, { recursive: true });
  const db = await PGlite.create(path.join(DATA_DIR, "pglite"));
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: opts.port ?? 0, maxConnections: 32 });
  await server.start();
  const address = (server as unknown as { server?: net.Server }).server?.address();
  const port = typeof address === "object" && address ? address.port : (opts.port ?? 0);
  writeFileSync(STATE_FILE, JSON.stringify({ pid: process.pid, port }));
  let stopped = false;
  return {
    url: urlFor(port),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      rmSync(STATE_FILE, { force: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** The embedded database another process (npm run dev / npm start) is serving, if any. */
export async function runningEmbeddedDatabase(): Promise<string | null> {
  if (!existsSync(STATE_FILE)) return null;
  try {
    const state = JSON.parse(readFileSync(STATE_FILE, "utf8")) as { pid: number; port: number };
    if (alive(state.pid) && (await reachable(state.port))) return urlFor(state.port);
  } catch {
    // stale or unreadable state: start our own
  }
  return null;
}

/**
 * DATABASE_URL when set; otherwise the embedded database, shared with a running server
 * or started in this process (and then stopped by the returned function).
 */
export async function ensureDatabaseUrl(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const running = await runningEmbeddedDatabase();
  if (running) {
    process.env.DATABASE_URL = running;
    return { url: running, stop: async () => {} };
  }
  const embedded = await startEmbeddedDatabase();
  process.env.DATABASE_URL = embedded.url;
  return embedded;
}
