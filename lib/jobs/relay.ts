import { prisma } from "@/lib/db";
import { JOB_PROTOCOL } from "@/lib/jobs/function-table";

export type TRelayEvent = { id: string; name: string; data: Record<string, unknown>; ts: number };

async function markDispatched(ids: string[]): Promise<void> {
  await prisma.outboxEvent.updateMany({
    where: { id: { in: ids }, dispatchedAt: null },
    data: { dispatchedAt: new Date(), dispatchedBy: JOB_PROTOCOL },
  });
}

/**
 * With a real Inngest server: sends undispatched outbox rows, each with its row id as the event id
 * (Inngest de-duplicates on it, so a send repeated after a crash is harmless), then marks them.
 */
export async function relayOutbox(
  send: (events: TRelayEvent[]) => Promise<unknown>,
  limit = 100,
): Promise<number> {
  const rows = await prisma.outboxEvent.findMany({
    where: { dispatchedAt: null },
    orderBy: { createdAt: "asc" },
    take: limit,
    select: { id: true, name: true, data: true, createdAt: true },
  });
  if (rows.length === 0) return 0;
  const events = rows.map((row) => ({
    id: row.id,
    name: row.name,
    data: (row.data ?? {}) as Record<string, unknown>,
    ts: row.createdAt.getTime(),
  }));
  try {
    await send(events);
    await markDispatched(events.map((e) => e.id));
    return events.length;
  } catch (batchError) {
    if (events.length === 1) throw batchError;
    // One event the server refuses must not hold back the others: send them one by one.
    const sent: string[] = [];
    for (const event of events) {
      try {
        await send([event]);
        sent.push(event.id);
      } catch {
        // stays undispatched; retried on the next pass
      }
    }
    if (sent.length === 0) throw batchError;
    await markDispatched(sent);
    return sent.length;
  }
}
