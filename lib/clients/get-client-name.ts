import { prisma } from "@/lib/db";

/** The client's display name (empty when the client is gone), for the dashboard's navigation. */
export async function getClientName({ clientId }: { clientId: string }): Promise<string> {
  const client = await prisma.client.findUnique({ where: { id: clientId }, select: { name: true } });
  return client?.name ?? "";
}
