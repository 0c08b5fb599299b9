// PUT /v1/users/{userId}/unblock: make a blocked user active (user.status.unblock only when the status changed)
import { methods, withClient } from "@/lib/http/with-client";
import { changeUserStatus } from "@/lib/users/change-user-status";
import { optionalBody } from "@/lib/http/optional-body";
import { ZBlockUser } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withClient<{ userId: string }>(async (ctx) => {
    const { comment, reviewer } = await optionalBody(ctx, ZBlockUser);
    const result = await changeUserStatus({
      clientId: ctx.client.id,
      userId: ctx.params.userId,
      status: "active",
      comment,
      reviewer,
    });
    return { id: result.id, status: result.status, updatedAt: result.updatedAt, changed: result.changed };
  }),
});
