// GET /v1/comments: the client's comments, newest first
import { listComments } from "@/lib/comments/list-comments";
import { ZListCommentsQuery } from "@/lib/comments/schemas";
import { methods, withClient } from "@/lib/http/with-client";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withClient(async ({ client, query }) => ({
    comments: await listComments({ clientId: client.id, query: query(ZListCommentsQuery) }),
  })),
});
