import { registerEndpoint } from "@/lib/openapi/registry";
import {
  ZCommentsResponse,
  ZCreateComment,
  ZCreateCommentResponse,
  ZListCommentsQuery,
} from "@/lib/comments/schemas";

const tag = "Comments";
const listing =
  "Newest `createdAt` first. `start` and `end` are inclusive epoch-ms bounds on `createdAt`; `limit` defaults to 100, maximum 1000. " +
  "A malformed bound or limit, or a limit over the maximum, is a 400.";

registerEndpoint({
  method: "post",
  path: "/v1/comments/user/{userId}",
  tag,
  summary: "Comment on a user",
  description:
    "Body `userId` must equal the path (else 400 at `/userId`). `createdAt` defaults to the time of receipt. " +
    "The comment is stored before the answer, so `accepted` also means persisted.",
  body: ZCreateComment,
  response: ZCreateCommentResponse,
  errors: { 404: "Unknown user (`/userId: User not found`)" },
});

registerEndpoint({
  method: "get",
  path: "/v1/comments",
  tag,
  summary: "List comments",
  description: listing,
  query: ZListCommentsQuery,
  response: ZCommentsResponse,
});

registerEndpoint({
  method: "get",
  path: "/v1/comments/user/{userId}",
  tag,
  summary: "List the comments on a user",
  description: listing,
  query: ZListCommentsQuery,
  response: ZCommentsResponse,
  errors: { 404: "Unknown user (`/userId: User not found`)" },
});
