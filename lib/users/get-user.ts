import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import type { TUserRecord } from "@/lib/users/schemas";
import { serializeUser, USER_RECORD_SELECT } from "@/lib/users/serialize-user";

/** GET /v1/users/{userId}. */
export async function getUser({
  clientId,
  userId,
}: {
  clientId: string;
  userId: string;
}): Promise<TUserRecord> {
  const row = await prisma.user.findUnique({
    where: { clientId_id: { clientId, id: userId } },
    select: USER_RECORD_SELECT,
  });
  if (!row) throw notFound("/userId", "User not found");
  return serializeUser(row);
}
