import { prisma } from "@/lib/db";

/** The client an API key (or an in-process caller) acts for, with what its screening reads. */
export type TClientContext = {
  id: string;
  name: string;
  type: "business" | "consumer";
  features: ReadonlySet<string>;
  actions: readonly string[];
  apiKeyId: string;
  /**
   * Versions of what the screening path caches in memory (lib/screening/README.md), read with
   * the key so that checking them costs no extra round trip: the client's configVersion and each
   * global dataset's version by name.
   */
  versions?: { config: string; datasets: Readonly<Record<string, string>> };
};

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
