import type { Tx } from "@/lib/db";

/** A stored transaction's Prisma `where`, with the row's time. */
export type TStoredTransactionWhere = { clientId_id: { clientId: string; id: string }; occurredAt: Date };

/**
 * Reads a client's stored transaction through its month: `read` gets the row's `where` with its time and
 * answers the row (null: the id is unknown).
 *
 * "transactions" is partitioned by month of "occurredAt", which the id does not give: a statement by
 * ("clientId", "id") alone is planned over every month partition, and costs more with every month kept
 * (about 9 ms at 65 months). The row's time is kept in "transaction_keys" (one primary-key probe; migration
 * 20261128100000_transaction_keys_occurred_at), and with it the planner keeps the one partition that holds it.
 * The key and the row are two statements: when the row's time changed between them (a resubmission that
 * replaced it), the key is read again.
 */
export async function readStoredTransaction<T>(
  db: Tx,
  clientId: string,
  id: string,
  read: (where: TStoredTransactionWhere) => Promise<T | null | undefined>,
): Promise<{ where: TStoredTransactionWhere; row: T } | null> {
  let missedAt: number | null = null;
  for (;;) {
    const keys = await db.$queryRaw<Array<{ occurredAt: Date }>>`
      SELECT "occurredAt" FROM "transaction_keys" WHERE "clientId" = ${clientId} AND "id" = ${id}`;
    const occurredAt = keys[0]?.occurredAt;
    // no such id, or a row gone since (its key unchanged)
    if (!occurredAt || occurredAt.getTime() === missedAt) return null;
    const where = { clientId_id: { clientId, id }, occurredAt };
    const row = await read(where);
    if (row) return { where, row };
    missedAt = occurredAt.getTime();
  }
}
