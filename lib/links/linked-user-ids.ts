import { prisma } from "@/lib/db";
import { notFound, validationError } from "@/lib/errors/domain-error";
import { clientFanOutCap, findUserLinks } from "@/lib/links/find-user-links";

/**
 * Refuses ids that are not the user or linked to them (depth 2, every kind): a ring action changes the
 * network the reviewer was shown, never someone picked by hand. An unknown user is not found.
 */
export async function assertLinkedUsers({
  clientId,
  userId,
  userIds,
  path,
}: {
  clientId: string;
  userId: string;
  userIds: readonly string[];
  path: string;
}): Promise<void> {
  const found = await findUserLinks(prisma, {
    clientId,
    userId,
    depth: 2,
    fanOutCap: await clientFanOutCap(prisma, clientId),
  });
  if (!found) throw notFound("/userId", "User not found");
  const linked = new Set([userId, ...found.links.map((l) => l.userId)]);
  const strangers = userIds.filter((id) => !linked.has(id));
  if (strangers.length)
    throw validationError(strangers.map((id) => `${path}: ${id} is not linked to ${userId}`));
}
