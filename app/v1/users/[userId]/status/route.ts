// PUT /v1/users/{userId}/status: set a user active or inactive, with closure details
import { methods, withClient } from "@/lib/http/with-client";
import { changeUserStatus } from "@/lib/users/change-user-status";
import { getUser } from "@/lib/users/get-user";
import { optionalBody } from "@/lib/http/optional-body";
import { ZUpdateUserStatus } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PUT: withClient<{ userId: string }>(async (ctx) => {
    const input = await optionalBody(ctx, ZUpdateUserStatus);
    const clientId = ctx.client.id;
    const userId = ctx.params.userId;
    if (!input.status) {
      // Nothing to change: answer the current state (still 404 for an unknown user).
      const user = await getUser({ clientId, userId });
      return { id: user.id, status: user.status, updatedAt: user.updatedAt, changed: false };
    }
    const result = await changeUserStatus({
      clientId,
      userId,
      status: input.status,
      comment: input.comment,
      reviewer: input.initiatedBy,
      reasonCode: input.reason,
      details: { closureType: input.closureType ?? null, completedAt: input.completedAt ?? null },
    });
    return { id: result.id, status: result.status, updatedAt: result.updatedAt, changed: result.changed };
  }),
});
