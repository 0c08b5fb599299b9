import { prisma } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import { addUserDeviceHot } from "@/lib/screening/hot/user-device";
import type { TAddUserDevice } from "@/lib/users/schemas";
import { upsertDevice } from "@/lib/users/upsert-device";

/** POST /v1/user/device: records a device of a known user. Raw SQL, one statement (lib/screening/hot). */
export async function addUserDevice(args: { clientId: string } & TAddUserDevice): Promise<{ id: string }> {
  return addUserDeviceHot(args);
}

/** The Prisma path it replaced, kept callable for the equivalence test. */
export async function addUserDevicePrisma({
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
