import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { COMMENTS_DEFAULT_LIMIT, type TComment, type TListCommentsQuery } from "@/lib/comments/schemas";
import { serializeComment } from "@/lib/comments/serialize-comment";

/** GET /v1/comments and GET /v1/comments/user/{userId}: newest first, `start`/`end` inclusive on createdAt. */
export async function listComments({
  clientId,
  userId,
  query,
}: {
  clientId: string;
  userId?: string;
  query: TListCommentsQuery;
}): Promise<TComment[]> {
  if (userId !== undefined) {
    const user = await prisma.user.findUnique({
      where: { clientId_id: { clientId, id: userId } },
      select: { id: true },
    });
    if (!user) throw notFound("/userId", "User not found");
  }
  const createdAt =
    query.start !== undefined || query.end !== undefined
      ? {
          ...(query.start !== undefined ? { gte: new Date(query.start) } : {}),
          ...(query.end !== undefined ? { lte: new Date(query.end) } : {}),
        }
      : undefined;
  const rows = await prisma.comment.findMany({
    where: { clientId, ...(userId !== undefined ? { userId } : {}), ...(createdAt ? { createdAt } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit ?? COMMENTS_DEFAULT_LIMIT,
  });
  return rows.map(serializeComment);
}
