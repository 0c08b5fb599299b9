// The state bench/screening.ts writes for the database it loaded (client and API key), read by the profiles.
import { readFileSync } from "node:fs";
import path from "node:path";

/** The state file of the bench database at `databaseUrl`. */
export function benchStatePath(databaseUrl: string): string {
  return path.resolve(`.data/bench-state-${new URL(databaseUrl).pathname.slice(1)}.json`);
}

/** The client and API key bench/screening.ts created in the database at `databaseUrl`. */
export function readBenchState(databaseUrl: string): { clientId: string; apiKey: string } {
  return JSON.parse(readFileSync(benchStatePath(databaseUrl), "utf8")) as {
    clientId: string;
    apiKey: string;
  };
}
