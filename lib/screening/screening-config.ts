import type { Pool, PoolClient } from "pg";
import type { TClientContext } from "@/lib/clients/client-context";

import { compiledRuleVersion } from "@/lib/rules/cel";
import { loadListIndexes, referencedListNames, type TListMeta } from "@/lib/lists/list-cache";
import type { ListIndex } from "@/lib/lists/list-index";
import type { TSubject } from "@/lib/screening/run-rules";
import type { TLoadedRule } from "@/lib/screening/evaluate-rules";
import { boundedCache } from "@/lib/cache/bounded-cache";

// Per-client, per-process cache of what every screening needs and that changes rarely: the evaluated
// rules (compiled once) and the active webhook subscriptions. Valid while clients.configVersion is
// unchanged; a trigger bumps it on every change (see the migration 20261124010000), and the version
// arrives with the API key read, so checking it costs no round trip. See README.md here.

export type TSubscriptionRef = { id: string; events: string[] };

export type TScreeningConfig = {
  version: string;
  rules: ReadonlyMap<TSubject, readonly TLoadedRule[]>;
  subscriptions: readonly TSubscriptionRef[];
  /** ISO 4217 code of transaction.baseAmount (lib/fx). */
  baseCurrency: string;
  /** The lists the rules read with inList, by name (lib/lists). */
  lists: ReadonlyMap<string, ListIndex>;
};

const byClient = boundedCache<TScreeningConfig>(10_000);
const loading = new Map<string, Promise<TScreeningConfig>>();

type TConfigRow = {
  version: string;
  rules: Array<TLoadedRule & { subject: TSubject }> | null;
  subscriptions: TSubscriptionRef[] | null;
  baseCurrency: string;
  lists: TListMeta[] | null;
};

// One statement; the version is read in the same snapshot as the rows it labels.
const LOAD_SQL = `
  SELECT c."configVersion"::text AS "version", c."baseCurrency",
    (SELECT json_agg(json_build_object(
        'ruleRef', r."id", 'ruleId', r."ruleId", 'status', r."status", 'subject', r."subject",
        'versionId', v."id", 'version', v."version", 'name', v."name", 'riskLevel', v."riskLevel",
        'recommendedAction', v."recommendedAction", 'reason', v."reason", 'condition', v."condition",
        'aggregates', v."aggregates") ORDER BY r."ruleId")
     FROM "rules" r JOIN "rule_versions" v ON v."ruleRef" = r."id" AND v."version" = r."liveVersion"
     WHERE r."clientId" = c."id" AND r."status" IN ('active', 'dry-run', 'muted')) AS "rules",
    (SELECT json_agg(json_build_object('id', s."id", 'events', s."events") ORDER BY s."id")
     FROM "webhook_subscriptions" s WHERE s."clientId" = c."id" AND s."active") AS "subscriptions",
    (SELECT json_agg(json_build_object('id', l."id", 'name', l."name", 'kind', l."kind", 'version', l."version"::text))
     FROM "lists" l WHERE l."clientId" = c."id") AS "lists"
  FROM "clients" c WHERE c."id" = $1`;

async function load(db: Pool | PoolClient, clientId: string): Promise<TScreeningConfig> {
  const { rows } = await db.query<TConfigRow>(LOAD_SQL, [clientId]);
  const row = rows[0];
  if (!row) throw new Error(`client ${clientId} not found`);
  const rules = new Map<TSubject, TLoadedRule[]>();
  for (const { subject, ...rule } of row.rules ?? []) {
    // compile now (cached per immutable version); a version that does not compile reports its
    // error per screening, exactly as before
    try {
      compiledRuleVersion({ ...rule, id: rule.versionId, subject });
    } catch {
      // recorded on each decision by evaluateRule
    }
    let list = rules.get(subject);
    if (!list) rules.set(subject, (list = []));
    list.push(rule);
  }
  // a second statement only when a list the rules read changed (its entries, indexed once)
  const lists = await loadListIndexes(
    db,
    clientId,
    row.lists ?? [],
    referencedListNames((row.rules ?? []).map((r) => ({ ...r, subject: r.subject }))),
  );
  const config = {
    version: row.version,
    rules,
    subscriptions: row.subscriptions ?? [],
    baseCurrency: row.baseCurrency,
    lists,
  };
  byClient.set(clientId, config);
  return config;
}

/**
 * The client's screening configuration at (at least) the version its API key read returned; reads
 * it from the database only when that version differs from the cached one.
 */
export async function screeningConfig(
  db: Pool | PoolClient,
  client: TClientContext,
): Promise<TScreeningConfig> {
  const cached = byClient.get(client.id);
  const wanted = client.versions?.config;
  if (cached && wanted !== undefined && cached.version === wanted) return cached;
  let pending = loading.get(client.id);
  if (!pending) {
    pending = load(db, client.id).finally(() => loading.delete(client.id));
    loading.set(client.id, pending);
  }
  const config = await pending;
  // a load that started before the change this key's read saw: read again
  if (wanted !== undefined && BigInt(config.version) < BigInt(wanted)) return load(db, client.id);
  return config;
}

/** Forgets every cached configuration (tests). */
export function clearScreeningConfigs(): void {
  byClient.clear();
}

/**
 * The lists of the client's configuration cached by the last screeningConfig call (undefined when
 * evicted), at no query.
 */
export function cachedLists(clientId: string): ReadonlyMap<string, ListIndex> | undefined {
  return byClient.get(clientId)?.lists;
}

/** The arguments of a screening: the client, its request, the read that travelled with the key read. */
export type TScreeningRequest<TBody, TPrefetched> = {
  client: TClientContext;
  body: TBody;
  /** The read, already made with the key read for this client at its current versions. */
  prefetched?: TPrefetched | null;
};
