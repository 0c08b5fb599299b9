import type { Tx } from "@/lib/db";
import type { TIdentifier } from "@/lib/users/index-identifiers";
import { indexIdentifiers } from "@/tests/oracle/index-identifiers";
import type { TUserDevice } from "@/lib/users/schemas";

/**
 * Records a device seen for a user (POST /v1/user/device, `user.userDevice`, `transaction.userDevice`):
 * first seen is kept, last seen and the details follow the latest sighting, and the device's
 * IP address and fingerprint are linked to the user for attribute blocking.
 */
export async function upsertDevice(
  tx: Tx,
  {
    clientId,
    userId,
    device,
    source = "device",
    seenAt = new Date(),
  }: { clientId: string; userId: string; device: TUserDevice; source?: string; seenAt?: Date },
): Promise<{ id: string; created: boolean }> {
  const existing = await tx.device.findUnique({
    where: { clientId_id: { clientId, id: device.id } },
    select: { firstSeenAt: true },
  });
  await tx.device.upsert({
    where: { clientId_id: { clientId, id: device.id } },
    create: {
      clientId,
      id: device.id,
      userId,
      fingerprint: device.fingerprint ?? null,
      ipAddress: device.ipAddress ?? null,
      data: device,
      firstSeenAt: seenAt,
      lastSeenAt: seenAt,
    },
    // A device shared by several users belongs to the latest one; the identifier links of the earlier users stay.
    update: {
      userId,
      fingerprint: device.fingerprint,
      ipAddress: device.ipAddress,
      data: device,
      lastSeenAt: seenAt,
    },
  });
  const identifiers: TIdentifier[] = [];
  if (device.ipAddress) identifiers.push({ kind: "ipAddress", value: device.ipAddress });
  if (device.fingerprint) identifiers.push({ kind: "deviceFingerprint", value: device.fingerprint });
  await indexIdentifiers(tx, { clientId, userId, identifiers, source });
  return { id: device.id, created: existing === null };
}
