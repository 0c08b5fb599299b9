import type { Tx } from "@/lib/db";

/**
 * Makes sure a user referenced only by id (the userId of a transaction, a recipient id, an id in the
 * identifier index) has a record, so a status set on them holds: a later POST /v1/user without
 * `status` keeps it, and GET /v1/users/blocked lists them. The record starts active; the caller
 * then changes the status through setUserStatus. Answers true when the record was created.
 */
export async function ensureUser(
  tx: Tx,
  {
    clientId,
    userId,
    createdAt,
    source,
  }: { clientId: string; userId: string; createdAt: Date; source: string },
): Promise<boolean> {
  const { count } = await tx.user.createMany({
    data: [
      { clientId, id: userId, status: "active", data: { id: userId }, createdAt, updatedAt: new Date() },
    ],
    skipDuplicates: true,
  });
  if (count === 1)
    await tx.userStatusChange.create({
      data: {
        clientId,
        userId,
        fromStatus: null,
        toStatus: "active",
        source,
        details: { created: true, referencedOnly: true },
      },
    });
  return count === 1;
}
