import { createApiKey } from "@/lib/auth/api-keys";
import { ZCreateClient, type TCreateClient } from "@/lib/clients/schemas";
import { RECOMMENDED_ACTIONS } from "@/lib/risk/risk-levels";
import { prisma } from "@/lib/db";

/** Creates a client and its first API key (returned once). */
export async function createClient(input: TCreateClient): Promise<{ clientId: string; apiKey: string }> {
  const data = ZCreateClient.parse(input);
  return prisma.$transaction(async (tx) => {
    const client = await tx.client.create({
      data: {
        name: data.name,
        type: data.type,
        features: [...new Set(data.features)],
        actions: data.actions ? [...new Set(data.actions)] : [...RECOMMENDED_ACTIONS],
      },
      select: { id: true },
    });
    const { apiKey } = await createApiKey({ clientId: client.id, name: "default" }, tx);
    return { clientId: client.id, apiKey };
  });
}
