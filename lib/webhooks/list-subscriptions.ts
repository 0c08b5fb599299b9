import { prisma } from "@/lib/db";
import type { TWebhookSubscription } from "@/lib/webhooks/schemas";
import { serializeSubscription } from "@/lib/webhooks/serialize-subscription";

/** The client's active subscriptions, oldest first. */
export async function listSubscriptions({ clientId }: { clientId: string }): Promise<TWebhookSubscription[]> {
  const rows = await prisma.webhookSubscription.findMany({
    where: { clientId, active: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, url: true, events: true },
  });
  return rows.map(serializeSubscription);
}
