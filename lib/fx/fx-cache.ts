// The process's exchange-rate table, cached under the global dataset version "fx" (bumped by every
// import in its transaction, read with the API key: lib/screening/README.md "To add a cache").
import type { Pool, PoolClient } from "pg";
import type { TClientContext } from "@/lib/clients/client-context";
import { buildFxTable, type TFxTable } from "@/lib/fx/rates";

export const FX_DATASET = "fx";

type TCached = { version: string; table: TFxTable };

const cache = globalThis as unknown as { fxRates?: TCached; fxLoading?: Promise<TCached> };

// One statement: the version labels exactly the rows read with it.
const LOAD_SQL = `
  SELECT coalesce((SELECT "version"::text FROM "dataset_versions" WHERE "name" = '${FX_DATASET}'), '0') AS "version",
         (SELECT json_agg(json_build_array("currency", "date"::text, "rate"::float8)) FROM "fx_rates")::text AS "rates"`;

async function load(db: Pool | PoolClient): Promise<TCached> {
  const { rows } = await db.query<{ version: string; rates: string | null }>(LOAD_SQL);
  const row = rows[0]!;
  const parsed = row.rates ? (JSON.parse(row.rates) as Array<[string, string, number]>) : [];
  const loaded = { version: row.version, table: buildFxTable(parsed) };
  if (!cache.fxRates || BigInt(loaded.version) >= BigInt(cache.fxRates.version)) cache.fxRates = loaded;
  return loaded;
}

/** The rate table at (at least) the version the client's key read saw; a query only when it changed. */
export async function fxRates(db: Pool | PoolClient, client: TClientContext): Promise<TFxTable> {
  const wanted = client.versions?.datasets[FX_DATASET];
  const cached = cache.fxRates;
  if (cached && wanted !== undefined && cached.version === wanted) return cached.table;
  cache.fxLoading ??= load(db).finally(() => (cache.fxLoading = undefined));
  const loaded = await cache.fxLoading;
  // a load that started before the import this key's read saw: read again
  if (wanted !== undefined && BigInt(loaded.version) < BigInt(wanted)) return (await load(db)).table;
  return loaded.table;
}
