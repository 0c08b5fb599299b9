import type { Tx } from "@/lib/db";
import type { TStoredUserStatus } from "@/lib/users/schemas";

/**
 * Reads a user's status with a row lock held until the caller's transaction ends, so two
 * concurrent status changes see each other's result (one webhook for two identical blocks).
 */
export async function lockUser(
  tx: Tx,
  { clientId, userId }: { clientId: string; userId: string },
): Promise<{ status: TStoredUserStatus } | null> {
  const rows = await tx.$queryRaw<{ status: string }[]>`
    SELECT status FROM users WHERE "clientId" = ${clientId} AND id = ${userId} FOR UPDATE`;
  const row = rows[0];
  return row ? { status: row.status as TStoredUserStatus } : null;
}
