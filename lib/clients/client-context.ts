import type { TClientContext } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db";

/** A client's screening context for in-process callers (seed, benchmarks) that hold no API key. */
export async function loadClientContext(clientId: string, apiKeyId: string): Promise<TClientContext> {
  const row = await prisma.client.findUniqueOrThrow({ where: { id: clientId } });
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    features: new Set(row.features),
    actions: row.actions,
    apiKeyId,
  };
}
