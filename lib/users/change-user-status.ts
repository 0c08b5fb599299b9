import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { setUserStatus, type TSetUserStatus, type TUserStatusResult } from "@/lib/users/set-user-status";

/** PUT /v1/users/{userId}/block, /unblock and /status: one user's status, 404 for an unknown user. */
export async function changeUserStatus(
  input: Omit<TSetUserStatus, "source"> & { source?: TSetUserStatus["source"] },
): Promise<TUserStatusResult> {
  const result = await prisma.$transaction((tx) => setUserStatus(tx, { source: "api", ...input }));
  if (!result) throw notFound("/userId", "User not found");
  return result;
}
