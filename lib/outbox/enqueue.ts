import type { Tx } from "@/lib/db";

export type TOutboxEvent = { name: string; data: Record<string, unknown>; clientId?: string | null };

/**
 * Records an event for the background functions in the caller's transaction, so it exists
 * exactly when the change that caused it is committed. Never call inngest.send() in a request path.
 */
export async function enqueue(tx: Tx, event: TOutboxEvent): Promise<string> {
  const row = await tx.outboxEvent.create({
    data: { name: event.name, data: event.data as object, clientId: event.clientId ?? null },
    select: { id: true },
  });
  return row.id;
}
