// POST /v1/comments/user/{userId}: add a comment on a user; GET: that user's comments, newest first
import { createComment } from "@/lib/comments/create-comment";
import { listComments } from "@/lib/comments/list-comments";
import { ZCreateComment, ZListCommentsQuery } from "@/lib/comments/schemas";
import { methods, withClient } from "@/lib/http/with-client";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient<{ userId: string }>(async ({ client, params, body }) => {
    const input = await body(ZCreateComment);
    const { id } = await createComment({ clientId: client.id, userId: params.userId, input });
    return { status: "accepted", id };
  }),
  GET: withClient<{ userId: string }>(async ({ client, params, query }) => ({
    comments: await listComments({
      clientId: client.id,
      userId: params.userId,
      query: query(ZListCommentsQuery),
    }),
  })),
});
