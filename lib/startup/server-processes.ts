// How many server processes `npm start` runs when WEB_CONCURRENCY is unset.
import os from "node:os";
import { parse } from "pg-connection-string";

/**
 * Whether the database at `databaseUrl` runs on this machine, as `pg` reads the URL: a Unix socket (a host
 * starting with `/`, percent-encoded or in `?host=`), localhost or a loopback address, or no host at all
 * (`PGHOST`, else the default socket). Any other name or address counts as another machine, even one that
 * is this machine's own (then set WEB_CONCURRENCY).
 */
export function isLocalDatabase(
  databaseUrl: string | undefined,
  pgHost: string | undefined = process.env.PGHOST,
): boolean {
  if (!databaseUrl) return false;
  let host: string;
  try {
    host = parse(databaseUrl).host ?? "";
  } catch {
    return false;
  }
  if (host === "") host = pgHost ?? "";
  host = host.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "" ||
    host.startsWith("/") ||
    host === "localhost" ||
    host === "localhost." ||
    host === "::1" ||
    /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(host)
  );
}

/**
 * One server process per core, or half the cores (at least one) when PostgreSQL shares the machine: at 8
 * connections a screening costs the database more CPU than the server, and on two cores shared with it two
 * processes served fewer screenings than one (docs/benchmarks.md, "Server processes").
 */
export function defaultServerProcesses(
  databaseUrl: string | undefined,
  cores: number = os.availableParallelism(),
): number {
  return isLocalDatabase(databaseUrl) ? Math.max(1, Math.floor(cores / 2)) : Math.max(1, cores);
}
