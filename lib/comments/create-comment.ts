import { prisma } from "@/lib/db";
import { notFound, validationError } from "@/lib/errors/domain-error";
import type { TCreateComment } from "@/lib/comments/schemas";

/**
 * POST /v1/comments/user/{userId}. The contract allows acceptance before persistence; we persist
 * before answering, so an accepted comment is never lost.
 */
export async function createComment({
  clientId,
  userId,
  input,
  source = "api",
}: {
  clientId: string;
  userId: string;
  input: TCreateComment;
  source?: "api" | "dashboard";
}): Promise<{ id: string }> {
  if (input.userId !== userId) throw validationError(["/userId: Must equal the userId in the path"]);
  const user = await prisma.user.findUnique({
    where: { clientId_id: { clientId, id: userId } },
    select: { id: true },
  });
  if (!user) throw notFound("/userId", "User not found");
  const receivedAt = new Date();
  const row = await prisma.comment.create({
    data: {
      clientId,
      userId,
      comment: input.comment,
      commenterId: input.commenterId,
      commenterDisplayName: input.commenterDisplayName ?? null,
      externalId: input.externalId ?? null,
      transactionId: input.transactionId ?? null,
      ruleTriggerEventId: input.ruleTriggerEventId ?? null,
      action: input.action ?? null,
      source,
      createdAt: input.createdAt === undefined ? receivedAt : new Date(input.createdAt),
      receivedAt,
    },
    select: { id: true },
  });
  return { id: row.id };
}
