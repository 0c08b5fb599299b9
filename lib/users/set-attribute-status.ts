import { prisma } from "@/lib/db";
import { normalizeIdentifier } from "@/lib/users/index-identifiers";
import { toStoredStatus, type TAttributeStatus } from "@/lib/users/schemas";
import { setUserStatus } from "@/lib/users/set-user-status";

/**
 * PUT /v1/users/attributes/status: every user linked to the attribute value (through their profile,
 * devices, transactions or payment instruments) gets the status, blocked by default.
 * `matchedUsers` counts the stored users that matched, whether or not their status changed.
 */
export async function setAttributeStatus({
  clientId,
  input,
}: {
  clientId: string;
  input: TAttributeStatus;
}): Promise<{ matchedUsers: number }> {
  const value = normalizeIdentifier(input.attribute, input.value);
  const links = await prisma.userIdentifier.findMany({
    where: { clientId, kind: input.attribute, value },
    select: { userId: true },
    orderBy: { userId: "asc" },
  });
  const status = input.status ? toStoredStatus(input.status) : "blocked";
  const matched = await prisma.$transaction(
    async (tx) => {
      let count = 0;
      for (const { userId } of links) {
        const result = await setUserStatus(tx, {
          clientId,
          userId,
          status,
          source: "attribute",
          comment: input.comment,
          reviewer: input.reviewer,
          details: { attribute: input.attribute, value: input.value },
        });
        if (result) count += 1;
      }
      return count;
    },
    { timeout: 60_000 },
  );
  return { matchedUsers: matched };
}
