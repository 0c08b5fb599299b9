// POST /dashboard-api/users/:userId/comments: add a reviewer comment (optionally about one transaction)
import { z } from "zod";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { createComment } from "@/lib/comments/create-comment";

const ZBody = z.object({
  comment: z.string().trim().min(1).max(10_000),
  transactionId: z.string().min(1).optional(),
});

export const POST = dashboardRoute<{ userId: string }>("users.review", async ({ user, params, body }) => {
  const { comment, transactionId } = await body(ZBody);
  const created = await createComment({
    clientId: user.clientId,
    userId: params.userId,
    source: "dashboard",
    input: {
      userId: params.userId,
      comment,
      commenterId: user.id,
      commenterDisplayName: user.name ?? user.email,
      transactionId,
    },
  });
  return { status: "accepted", id: created.id };
});
