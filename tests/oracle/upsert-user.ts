import type { Tx } from "@/lib/db";
import { identifiersOfUser } from "@/lib/users/index-identifiers";
import { replaceIdentifiers } from "@/tests/oracle/index-identifiers";
import { lockUser } from "@/lib/users/lock-user";
import { toStoredStatus, type TStoredUserStatus, type TUser } from "@/lib/users/schemas";
import { upsertDevice } from "@/tests/oracle/upsert-device";

/**
 * Creates or updates a user by id, inside the caller's transaction (POST /v1/user, onboarding,
 * inline users of transactions, events and reports).
 *
 * - `createdAt` is the `timestamp` of the first request for the id and never changes.
 * - An update replaces every other field with the new body; a body without `status` keeps the
 *   current status, so re-sending a profile never unblocks anyone.
 * - A status change is recorded in user_status_changes. No webhook: user.status.block/unblock belong
 *   to the block/unblock operations (interface "User status").
 */
export async function upsertUser(
  tx: Tx,
  { clientId, user, source }: { clientId: string; user: TUser; source: string },
): Promise<{ created: boolean; status: TStoredUserStatus }> {
  const requested = user.status ? toStoredStatus(user.status) : undefined;
  const fields = {
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    email: user.email?.email ?? null,
    phone: user.phone?.phone ?? null,
    data: user,
  };
  const now = new Date();
  const inserted = await tx.user.createMany({
    data: [
      {
        clientId,
        id: user.id,
        ...fields,
        status: requested ?? "active",
        createdAt: new Date(user.timestamp),
        updatedAt: now,
      },
    ],
    skipDuplicates: true,
  });
  let created = inserted.count === 1;
  let status: TStoredUserStatus = requested ?? "active";

  if (created) {
    await tx.userStatusChange.create({
      data: {
        clientId,
        userId: user.id,
        fromStatus: null,
        toStatus: status,
        source,
        details: { created: true },
      },
    });
  } else {
    const current = await lockUser(tx, { clientId, userId: user.id });
    if (!current) throw new Error(`user ${user.id} vanished during upsert`);
    status = requested ?? current.status;
    const changed = status !== current.status;
    await tx.user.update({
      where: { clientId_id: { clientId, id: user.id } },
      data: { ...fields, status, updatedAt: now, ...(changed ? { statusReason: null } : {}) },
    });
    if (changed)
      await tx.userStatusChange.create({
        data: { clientId, userId: user.id, fromStatus: current.status, toStatus: status, source },
      });
    created = false;
  }

  await replaceIdentifiers(tx, {
    clientId,
    userId: user.id,
    kinds: ["phone", "email"],
    identifiers: identifiersOfUser(user),
    source,
  });
  if (user.userDevice) await upsertDevice(tx, { clientId, userId: user.id, device: user.userDevice, source });
  return { created, status };
}
