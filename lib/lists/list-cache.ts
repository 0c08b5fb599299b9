// Per-process indexes of the client lists that rules read, rebuilt only when a list's version changes.
// The lists' versions arrive with the screening configuration (lib/screening/screening-config.ts, one
// statement, reloaded when clients.configVersion changes: every list change bumps it through the
// triggers of migration 20261125031000_lists), so a warm screening costs no query for lists.
import type { Pool, PoolClient } from "pg";
import { boundedCache, type TBoundedCache } from "@/lib/cache/bounded-cache";
import { ListIndex, type TLoadedEntry } from "@/lib/lists/list-index";
import { listNamesIn, usesLists } from "@/lib/lists/in-list";
import type { TListKind } from "@/lib/lists/schemas";
import { compiledRuleVersion } from "@/lib/rules/cel";

export type TListMeta = { id: string; name: string; kind: TListKind; version: string };

type TCachedIndex = { version: string; index: ListIndex };

const cache = globalThis as unknown as { listIndexCache?: TBoundedCache<TCachedIndex> };
const MAX_CACHED_LISTS = 5_000;

function indexes(): TBoundedCache<TCachedIndex> {
  return (cache.listIndexCache ??= boundedCache<TCachedIndex>(MAX_CACHED_LISTS));
}

// The version is read in the same statement as the entries it labels; expired entries never match again.
const ENTRIES_SQL = `
  SELECT l."id", l."kind", l."version"::text AS "version",
    (SELECT json_agg(json_build_array(e."key", (extract(epoch FROM e."expiresAt") * 1000)::bigint, e."value"))
     FROM "list_entries" e
     WHERE e."listId" = l."id" AND (e."expiresAt" IS NULL OR e."expiresAt" > now()))::text AS "entries"
  FROM "lists" l WHERE l."clientId" = $1 AND l."id" = ANY($2::text[])`;

/** Names of the lists that the given rule versions read with inList. */
export function referencedListNames(
  rules: ReadonlyArray<{ versionId: string; subject: string; condition: string; aggregates: object }>,
): Set<string> {
  const names = new Set<string>();
  for (const rule of rules) {
    if (!usesLists(rule.condition)) continue;
    try {
      const compiled = compiledRuleVersion({ ...rule, id: rule.versionId } as never);
      for (const name of listNamesIn(compiled.condition.ast)) if (name) names.add(name);
    } catch {
      // a version that does not compile reports its error per screening
    }
  }
  return names;
}

/** The indexes of the named lists (those that exist), loading only the ones whose version changed. */
export async function loadListIndexes(
  db: Pool | PoolClient,
  clientId: string,
  lists: readonly TListMeta[],
  names: ReadonlySet<string>,
): Promise<Map<string, ListIndex>> {
  const byName = new Map<string, ListIndex>();
  const stale: TListMeta[] = [];
  for (const meta of lists) {
    if (!names.has(meta.name)) continue;
    const cached = indexes().get(meta.id);
    if (cached && BigInt(cached.version) >= BigInt(meta.version)) byName.set(meta.name, cached.index);
    else stale.push(meta);
  }
  if (stale.length === 0) return byName;
  const { rows } = await db.query<{ id: string; kind: TListKind; version: string; entries: string | null }>(
    ENTRIES_SQL,
    [clientId, stale.map((m) => m.id)],
  );
  for (const row of rows) {
    const entries = row.entries ? (JSON.parse(row.entries) as TLoadedEntry[]) : [];
    const index = new ListIndex(row.kind, entries);
    indexes().set(row.id, { version: row.version, index });
    const meta = stale.find((m) => m.id === row.id);
    if (meta) byName.set(meta.name, index);
  }
  return byName;
}

/**
 * The current indexes of the lists some rule versions read, outside a screening (backtests of a
 * draft: "what if I publish now"). One small query, plus the entries of lists not indexed yet.
 */
export async function currentListIndexes(
  db: Pool | PoolClient,
  clientId: string,
  rules: Parameters<typeof referencedListNames>[0],
): Promise<Map<string, ListIndex>> {
  const names = referencedListNames(rules);
  if (names.size === 0) return new Map();
  const { rows } = await db.query<TListMeta>(
    `SELECT "id", "name", "kind", "version"::text AS "version" FROM "lists"
     WHERE "clientId" = $1 AND "name" = ANY($2::text[])`,
    [clientId, [...names]],
  );
  return loadListIndexes(db, clientId, rows, names);
}
