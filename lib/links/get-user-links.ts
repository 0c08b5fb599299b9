import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { clientFanOutCap, findUserLinks, type TUserLinks } from "@/lib/links/find-user-links";
import type { TIdentifierKind } from "@/lib/users/index-identifiers";

/** GET /v1/users/{userId}/links, with the client's fan-out cap. */
export async function getUserLinks({
  clientId,
  userId,
  depth,
  kinds,
}: {
  clientId: string;
  userId: string;
  depth: 1 | 2;
  kinds?: TIdentifierKind[];
}): Promise<TUserLinks> {
  const fanOutCap = await clientFanOutCap(prisma, clientId);
  const links = await findUserLinks(prisma, { clientId, userId, depth, kinds, fanOutCap });
  if (!links) throw notFound("/userId", "User not found");
  return links;
}
