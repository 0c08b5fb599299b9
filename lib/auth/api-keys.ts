import { createHash, randomBytes } from "node:crypto";
import { pgPool, prisma, type Tx } from "@/lib/db";

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

export type TClientContext = {
  id: string;
  name: string;
  type: "business" | "consumer";
  features: ReadonlySet<string>;
  actions: readonly string[];
  apiKeyId: string;
  /**
   * Versions of what the screening path caches in memory (lib/screening/hot/README.md), read with
   * the key so that checking them costs no extra round trip: the client's configVersion and each
   * global dataset's version by name.
   */
  versions?: { config: string; datasets: Readonly<Record<string, string>> };
};

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
  WHERE k."hash" = $1`;

export async function authenticateApiKey(key: string): Promise<TClientContext | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const { rows } = await pgPool().query<TKeyRow>(AUTH_SQL, [hashApiKey(key)]);
  const row = rows[0];
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
