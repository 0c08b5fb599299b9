import { ZConfigureClient, type TConfigureClient } from "@/lib/clients/schemas";
import { prisma, type Tx } from "@/lib/db";
import { serializeClient, type TClientConfig } from "@/lib/clients/serialize-client";

/**
 * Updates a client's settings; `features` and `actions` replace the current lists. `db`: the caller's
 * transaction when an audit row must commit with the change.
 */
export async function configureClient(
  input: TConfigureClient,
  db: Tx = prisma,
): Promise<TClientConfig | null> {
  const data = ZConfigureClient.parse(input);
  const existing = await db.client.findUnique({ where: { id: data.clientId }, select: { id: true } });
  if (!existing) return null;
  const client = await db.client.update({
    where: { id: data.clientId },
    data: {
      ...(data.name !== undefined && { name: data.name }),
      ...(data.features !== undefined && { features: [...new Set(data.features)] }),
      ...(data.actions !== undefined && { actions: [...new Set(data.actions)] }),
      ...(data.reportingProfile !== undefined && { reportingProfile: data.reportingProfile }),
      ...(data.baseCurrency !== undefined && { baseCurrency: data.baseCurrency }),
      ...(data.linkFanOutCap !== undefined && { linkFanOutCap: data.linkFanOutCap }),
      ...(data.retentionMonths !== undefined && { retentionMonths: data.retentionMonths }),
    },
  });
  return serializeClient(client);
}
