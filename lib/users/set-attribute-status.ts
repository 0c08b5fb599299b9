import { prisma } from "@/lib/db";
import { ensureUser } from "@/lib/users/ensure-user";
import { normalizeIdentifier } from "@/lib/users/index-identifiers";
import { toStoredStatus, type TAttributeStatus } from "@/lib/users/schemas";
import { setUserStatus } from "@/lib/users/set-user-status";

/**
 * PUT /v1/users/attributes/status: every user linked to the attribute value (through their profile,
 * devices, transactions or payment instruments) gets the status, blocked by default.
 * `matchedUsers` counts the users that matched, whether or not their status changed; a user known only
 * from a transaction or instrument (never sent to POST /v1/user) gets a record so the status holds.
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
    select: { userId: true, createdAt: true },
    orderBy: { userId: "asc" },
  });
  const status = input.status ? toStoredStatus(input.status) : "blocked";
  const matched = await prisma.$transaction(
    async (tx) => {
      let count = 0;
      for (const { userId, createdAt } of links) {
        await ensureUser(tx, { clientId, userId, createdAt, source: "attribute" });
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
