// How many server processes `npm start` runs when WEB_CONCURRENCY is unset.
import os from "node:os";

/**
 * Whether the database at `databaseUrl` runs on this machine: localhost, a loopback address, or a Unix
 * socket (`host=/run/postgresql` in the query, or no host at all).
 */
export function isLocalDatabase(databaseUrl: string | undefined): boolean {
  if (!databaseUrl) return false;
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return false;
  }
  const socket = url.searchParams.get("host");
  if (socket !== null) return socket.startsWith("/");
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "" || host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * One server process per core, or half the cores (at least one) when PostgreSQL shares the machine: a
 * screening costs the database at least as much CPU as the server (docs/benchmarks.md, "Server processes"),
 * and on two cores shared with it two processes served fewer screenings than one.
 */
export function defaultServerProcesses(
  databaseUrl: string | undefined,
  cores: number = os.availableParallelism(),
): number {
  return isLocalDatabase(databaseUrl) ? Math.max(1, Math.floor(cores / 2)) : Math.max(1, cores);
}
