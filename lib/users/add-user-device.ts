import { prisma } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import type { TAddUserDevice } from "@/lib/users/schemas";
import { upsertDevice } from "@/lib/users/upsert-device";

/** POST /v1/user/device: records a device of a known user. */
export async function addUserDevice({
  clientId,
  userId,
  device,
}: { clientId: string } & TAddUserDevice): Promise<{ id: string }> {
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { clientId_id: { clientId, id: userId } },
      select: { id: true },
    });
    if (!user) throw notFound("/userId", "User not found");
    await upsertDevice(tx, { clientId, userId, device, source: "device" });
    return { id: device.id };
  });
}
