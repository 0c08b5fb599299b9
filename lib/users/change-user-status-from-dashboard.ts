import { z } from "zod";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/with-client";
import { actorLabel, type TDashboardActor } from "@/lib/alerts/actor";
import { STORED_USER_STATUSES } from "@/lib/users/schemas";
import { setUserStatus, type TUserStatusResult } from "@/lib/users/set-user-status";

export const ZDashboardUserStatus = z.object({
  userId: z.string().min(1),
  status: z.enum(STORED_USER_STATUSES),
  comment: z.string().trim().max(5000).optional(),
});

/**
 * Block, unblock or change a user's status from the dashboard: the same setUserStatus the API's
 * block/unblock/status endpoints use (so user.status.block / unblock fire exactly as they do there),
 * with the dashboard user as reviewer and an audit row in the same transaction.
 */
export async function changeUserStatusFromDashboard(input: {
  clientId: string;
  userId: string;
  status: string;
  comment?: string;
  actor: TDashboardActor;
}): Promise<TUserStatusResult> {
  const { clientId, actor } = input;
  const { userId, status, comment } = parseWith(ZDashboardUserStatus, {
    userId: input.userId,
    status: input.status,
    comment: input.comment,
  });
  const result = await prisma.$transaction(async (tx) => {
    const changed = await setUserStatus(tx, {
      clientId,
      userId,
      status,
      source: "dashboard",
      comment: comment || null,
      reviewer: actorLabel(actor),
    });
    if (changed?.changed)
      await tx.auditLog.create({
        data: {
          clientId,
          actorType: "dashboard_user",
          actorId: actor.id,
          action: `user.status.${status}`,
          entityType: "user",
          entityId: userId,
          details: { status, comment: comment ?? null },
        },
      });
    return changed;
  });
  if (!result) throw notFound("/userId", "User not found");
  return result;
}
