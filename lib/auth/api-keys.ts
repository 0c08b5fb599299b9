import { createHash, randomBytes } from "node:crypto";
import { boundedCache } from "@/lib/cache/bounded-cache";
import { pgPool, prisma, type Tx } from "@/lib/db";
import type { TClientContext } from "@/lib/clients/client-context";
import { statementName } from "@/lib/db-prepared";
import { timeAggregateRead } from "@/lib/ops/metrics";

const KEY_PREFIX = "rsk_";

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Creates a key for the client. The key is returned once and only its hash is stored. */
export async function createApiKey(
  { clientId, name }: { clientId: string; name?: string },
  db: Tx = prisma,
): Promise<{ id: string; apiKey: string }> {
  const apiKey = KEY_PREFIX + randomBytes(24).toString("base64url");
  const row = await db.apiKey.create({
    data: {
      clientId,
      name: name ?? null,
      prefix: apiKey.slice(0, KEY_PREFIX.length + 6),
      hash: hashApiKey(apiKey),
    },
    select: { id: true },
  });
  return { id: row.id, apiKey };
}

export async function revokeApiKey({ apiKey }: { apiKey: string }): Promise<boolean> {
  const res = await prisma.apiKey.updateMany({
    where: { hash: hashApiKey(apiKey), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return res.count > 0;
}

export async function revokeApiKeyById({ clientId, id }: { clientId: string; id: string }): Promise<boolean> {
  const res = await prisma.apiKey.updateMany({
    where: { clientId, id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return res.count > 0;
}

// lastUsedAt is written at most once a minute per key, so authentication costs one read per request.
const LAST_USED_INTERVAL_MS = 60_000;
const lastUsedWrites = new Map<string, number>();

type TKeyRow = {
  id: string;
  revokedAt: Date | null;
  clientId: string;
  name: string;
  type: "business" | "consumer";
  features: string[];
  actions: string[];
  configVersion: string;
  datasets: Record<string, string> | null;
};

// Not cached: a revoked key is refused on the very next request, in every process. One indexed read
// in raw SQL (no Prisma query building) that also returns the cache versions of the screening path.
const AUTH_SQL = `
  SELECT k."id", k."revokedAt", c."id" AS "clientId", c."name", c."type"::text AS "type", c."features",
         c."actions", c."configVersion"::text AS "configVersion",
         (SELECT jsonb_object_agg(d."name", d."version"::text) FROM "dataset_versions" d) AS "datasets"
  FROM "api_keys" k JOIN "clients" c ON c."id" = k."clientId"
  WHERE k."hash" = $1::text`;

function acceptedKey(row: TKeyRow | undefined): TClientContext | null {
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if ((lastUsedWrites.get(row.id) ?? 0) + LAST_USED_INTERVAL_MS < now) {
    lastUsedWrites.set(row.id, now);
    void pgPool()
      .query(`UPDATE "api_keys" SET "lastUsedAt" = $2 WHERE "id" = $1`, [row.id, new Date(now)])
      .catch(() => lastUsedWrites.delete(row.id));
  }
  return {
    id: row.clientId,
    name: row.name,
    type: row.type,
    features: new Set(row.features),
    actions: row.actions,
    apiKeyId: row.id,
    versions: { config: row.configVersion, datasets: row.datasets ?? {} },
  };
}

// The client each key hash resolved to last time in this process: only a guess to plan a read that
// travels with the key read (authenticateApiKeyWithRead), never an authorization.
const lastClientByHash = boundedCache<TClientContext>(10_000);

function remember(hash: string, client: TClientContext | null): void {
  if (!client) {
    lastClientByHash.delete(hash);
    return;
  }
  lastClientByHash.set(hash, client);
}

function validKey(key: string): boolean {
  return key.startsWith(KEY_PREFIX) && key.length <= 200;
}

/** The hash a key is stored under, or null for a string that cannot be a key (hashed once per request). */
export function apiKeyHash(key: string): string | null {
  return validKey(key) ? hashApiKey(key) : null;
}

export async function authenticateApiKey(key: string): Promise<TClientContext | null> {
  return authenticateApiKeyHash(apiKeyHash(key));
}

/** authenticateApiKey for a key already hashed (apiKeyHash). */
export async function authenticateApiKeyHash(hash: string | null): Promise<TClientContext | null> {
  if (hash === null) return null;
  const { rows } = await pgPool().query<TKeyRow>(AUTH_SQL, [hash]);
  const client = acceptedKey(rows[0]);
  remember(hash, client);
  return client;
}

/** The client this key hash resolved to last time in this process (a guess: see authenticateApiKeyWithRead). */
export function guessClient(hash: string): TClientContext | undefined {
  return lastClientByHash.get(hash);
}

/**
 * The same client at the same cache versions and with the same features (what a read planned for
 * `guess` depends on: a feature such as paymentInstrumentRules decides what is read).
 */
export function sameClientState(a: TClientContext, b: TClientContext): boolean {
  if (a.id !== b.id || a.versions?.config !== b.versions?.config) return false;
  if (a.features.size !== b.features.size || [...a.features].some((f) => !b.features.has(f))) return false;
  const [x, y] = [a.versions?.datasets ?? {}, b.versions?.datasets ?? {}];
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/**
 * A read built for the statement of the key read: `build` adds its parameters to `params` and answers
 * a SELECT whose every tenant predicate uses `clientSql`, the client id of the key this same
 * statement read (so tenant isolation comes from the database, not from the guess it was planned for).
 */
export type TKeyedRead = {
  build: (
    params: { values: unknown[]; add: (value: unknown, cast: string) => string },
    clientSql: string,
  ) => string;
};

// By the caller's SELECT: a screening's read is one text per client configuration (often the very
// same string), so its statement and name are built once, not concatenated and hashed per request.
const keyedStatements = boundedCache<{ name: string; text: string }>(500);

/**
 * The statement of the key read with a caller's SELECT, as a named statement (planned once per
 * connection): see `prepared` in lib/screening/sql/statements.ts. The read's columns come next to the
 * key's: it must not name one of TKeyRow's.
 */
function keyedStatement(select: string): { name: string; text: string } {
  let statement = keyedStatements.get(select);
  if (!statement) {
    const text = `WITH k AS (${AUTH_SQL})
     SELECT k.*, r.* FROM k LEFT JOIN LATERAL (${select}) r ON k."revokedAt" IS NULL`;
    statement = { name: statementName(text, "rss_key_"), text };
    keyedStatements.set(select, statement);
  }
  return statement;
}

/**
 * The key read and a caller's read in one statement. The caller's row comes back only for a valid,
 * unrevoked key (null otherwise, and for a key of another client the caller must not use it:
 * compare `client` with the guess the read was planned for).
 */
export async function authenticateApiKeyWithRead(
  hash: string | null,
  read: TKeyedRead,
): Promise<{ client: TClientContext | null; row: Record<string, unknown> | null }> {
  if (hash === null) return { client: null, row: null };
  const values: unknown[] = [hash];
  const params = {
    values,
    add(value: unknown, cast: string) {
      values.push(value === undefined ? null : value);
      return `$${values.length}::${cast}`;
    },
  };
  const { name, text } = keyedStatement(read.build(params, `k."clientId"`));
  const { rows } = await timeAggregateRead(() =>
    pgPool().query<TKeyRow & Record<string, unknown>>({ name, text, values }),
  );
  const client = acceptedKey(rows[0]);
  remember(hash, client);
  return { client, row: client ? rows[0]! : null };
}
