// The process's sanctions index, rebuilt when any dataset's import id changes.
import { prisma, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { SanctionsIndex, SanctionsIndexBuilder } from "@/lib/sanctions/sanctions-index";

type TCached = { version: string; index: SanctionsIndex };

// Process-wide cache (survives hot reloads like the Prisma client); never per-screening state.
const cache = globalThis as unknown as {
  sanctionsIndex?: TCached;
  sanctionsBuilding?: { version: string; promise: Promise<TCached> };
};

/** One value that changes whenever any dataset is imported or removed. */
export const SANCTIONS_VERSION_SQL = Prisma.sql`
  SELECT coalesce(string_agg("id" || ':' || "importId", ',' ORDER BY "id"), '') FROM "sanctions_datasets"`;

const PAGE = 20_000;

type TPageRow = [string, string, string, string[], string[], string | null];

async function readVersion(db: Tx): Promise<string> {
  const [row] = await db.$queryRaw<[{ version: string }]>`SELECT (${SANCTIONS_VERSION_SQL}) AS version`;
  return row.version;
}

/**
 * Reads every entity through the caller's connection: a screening waiting for the index holds its
 * transaction open, and the embedded database serves no other connection meanwhile (nor would a
 * busy pool), so a second connection could deadlock. The version is read before and after: an
 * import committed in between (read committed) changes it, and then the reading starts over.
 */
async function buildIndex(db: Tx): Promise<TCached> {
  for (;;) {
    const version = await readVersion(db);
    const builder = new SanctionsIndexBuilder();
    let after = ["", ""];
    for (;;) {
      // one JSON text per page: far fewer rows for the driver to decode than one row per entity
      const [row] = await db.$queryRaw<[{ page: string | null }]>`
        SELECT json_agg(json_build_array(x."datasetId", x."entityId", x."name", x."aliases", x."birthDates",
                                         x."programme"))::text AS page
        FROM (SELECT "datasetId", "entityId", "name", "aliases", "birthDates", "programme"
              FROM "sanctions_entities" WHERE ("datasetId", "entityId") > (${after[0]}, ${after[1]})
              ORDER BY "datasetId", "entityId" LIMIT ${PAGE}) x`;
      const page = row.page ? (JSON.parse(row.page) as TPageRow[]) : [];
      for (const [datasetId, entityId, name, aliases, birthDates, programme] of page) {
        builder.add({ datasetId, entityId, name, aliases, birthDates, programme });
      }
      if (page.length < PAGE) break;
      const last = page[page.length - 1]!;
      after = [last[0], last[1]];
    }
    if ((await readVersion(db)) === version) return { version, index: builder.build() };
  }
}

/**
 * The index for `version` (read by the caller with SANCTIONS_VERSION_SQL, or here when omitted):
 * the cached one when it is current, otherwise rebuilt once however many screenings ask at the same time.
 */
export async function getSanctionsIndex(db: Tx = prisma, knownVersion?: string): Promise<SanctionsIndex> {
  const version = knownVersion ?? (await readVersion(db));
  if (cache.sanctionsIndex?.version === version) return cache.sanctionsIndex.index;
  if (cache.sanctionsBuilding?.version !== version) {
    const promise = buildIndex(db).then(
      (built) => {
        cache.sanctionsIndex = built;
        return built;
      },
      (err: unknown) => {
        cache.sanctionsBuilding = undefined;
        throw err;
      },
    );
    cache.sanctionsBuilding = { version, promise };
  }
  return (await cache.sanctionsBuilding.promise).index;
}
