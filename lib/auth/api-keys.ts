import { createHash, randomBytes } from "node:crypto";
import { prisma, type Tx } from "@/lib/db";

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
};

// lastUsedAt is written at most once a minute per key, so authentication costs one read per request.
const LAST_USED_INTERVAL_MS = 60_000;
const lastUsedWrites = new Map<string, number>();

export async function authenticateApiKey(key: string): Promise<TClientContext | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const row = await prisma.apiKey.findUnique({
    where: { hash: hashApiKey(key) },
    select: {
      id: true,
      revokedAt: true,
      client: { select: { id: true, name: true, type: true, features: true, actions: true } },
    },
  });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if ((lastUsedWrites.get(row.id) ?? 0) + LAST_USED_INTERVAL_MS < now) {
    lastUsedWrites.set(row.id, now);
    void prisma.apiKey
      .update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } })
      .catch(() => lastUsedWrites.delete(row.id));
  }
  return {
    id: row.client.id,
    name: row.client.name,
    type: row.client.type,
    features: new Set(row.client.features),
    actions: row.client.actions,
    apiKeyId: row.id,
  };
}
