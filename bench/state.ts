// The state bench/screening.ts writes for the database it loaded (client, API key, users), read by the profiles.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The state file of the bench database at `databaseUrl`. */
export function benchStatePath(databaseUrl: string): string {
  return path.resolve(`.data/bench-state-${new URL(databaseUrl).pathname.slice(1)}.json`);
}

/**
 * What bench/screening.ts loaded into a database: its client, API key, the history's rows and users, and
 * the sequence number of the last transaction the bench screened there (`TBenchSequence`).
 */
export type TBenchState = { clientId: string; apiKey: string; rows?: number; users: number; nextSeq: number };

/** The client, API key and users bench/screening.ts loaded into the database at `databaseUrl`. */
export function readBenchState(databaseUrl: string): TBenchState {
  const state = JSON.parse(readFileSync(benchStatePath(databaseUrl), "utf8")) as Partial<TBenchState>;
  if (typeof state.users !== "number") {
    throw new Error(`${benchStatePath(databaseUrl)} is from an older bench history: load the database again`);
  }
  return { ...state, nextSeq: state.nextSeq ?? 0 } as TBenchState;
}

/** Records the state of the bench database at `databaseUrl`. */
export function writeBenchState(databaseUrl: string, state: TBenchState): void {
  const file = benchStatePath(databaseUrl);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(state));
}
