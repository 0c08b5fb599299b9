import { prisma } from "@/lib/db";

export type TRelayEvent = { id: string; name: string; data: Record<string, unknown>; ts: number };

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
  await send(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      data: (row.data ?? {}) as Record<string, unknown>,
      ts: row.createdAt.getTime(),
    })),
  );
  await prisma.outboxEvent.updateMany({
    where: { id: { in: rows.map((r) => r.id) }, dispatchedAt: null },
    data: { dispatchedAt: new Date() },
  });
  return rows.length;
}
