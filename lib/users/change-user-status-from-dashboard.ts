import { z } from "zod";
import { prisma, type Tx } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { actorLabel, type TDashboardActor } from "@/lib/alerts/actor";
import { settleAlerts } from "@/lib/alerts/settle-alerts";
import { STORED_USER_STATUSES } from "@/lib/users/schemas";
import { setUserStatus, type TUserStatusResult } from "@/lib/users/set-user-status";

/** The dashboard's status change of one user (the route's body). */
export const ZDashboardUserStatus = z
  .object({
    status: z.enum(STORED_USER_STATUSES),
    comment: z.string().trim().max(5000).optional(),
    /** Blocking: also settle the user's open alerts as confirmed (the block is the verdict). */
    closeAlerts: z.boolean().default(true),
  })
  // A block is a decision about a person: its reason is part of the record.
  .refine((v) => v.status !== "blocked" || !!v.comment, {
    path: ["comment"],
    message: "A note is required to block a user",
  });
export type TDashboardUserStatus = z.infer<typeof ZDashboardUserStatus>;

export type TDashboardUserStatusResult = TUserStatusResult & { alertsClosed: number };

/**
 * The status change inside the caller's transaction: the same setUserStatus the API's block/unblock/status
 * endpoints use (so user.status.block / unblock fire exactly as they do there), the dashboard user as
 * reviewer, an audit row, and on a block the user's unsettled alerts confirmed with the note. null when
 * the client has no such user.
 */
export async function applyDashboardUserStatus(
  tx: Tx,
  input: { clientId: string; userId: string; actor: TDashboardActor } & TDashboardUserStatus,
): Promise<TDashboardUserStatusResult | null> {
  const { clientId, actor, userId, status, comment, closeAlerts } = input;
  const changed = await setUserStatus(tx, {
    clientId,
    userId,
    status,
    source: "dashboard",
    comment: comment || null,
    reviewer: actorLabel(actor),
  });
  if (!changed) return null;
  const settled =
    status === "blocked" && closeAlerts
      ? await settleAlerts(tx, {
          clientId,
          where: { userId },
          status: "confirmed",
          feedback: comment ?? "",
          reviewer: actor,
          cause: "user.status.blocked",
        })
      : [];
  if (changed.changed || settled.length)
    await tx.auditLog.create({
      data: {
        clientId,
        actorType: "dashboard_user",
        actorId: actor.id,
        action: `user.status.${status}`,
        entityType: "user",
        entityId: userId,
        details: { status, comment: comment ?? null, alertsClosed: settled.length },
      },
    });
  return { ...changed, alertsClosed: settled.length };
}

/** Block, unblock or change a user's status from the dashboard (applyDashboardUserStatus in its own transaction). */
export async function changeUserStatusFromDashboard(
  input: { clientId: string; userId: string; actor: TDashboardActor } & TDashboardUserStatus,
): Promise<TDashboardUserStatusResult> {
  const result = await prisma.$transaction((tx) => applyDashboardUserStatus(tx, input));
  if (!result) throw notFound("/userId", "User not found");
  return result;
}
