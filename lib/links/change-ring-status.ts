import { prisma } from "@/lib/db";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { assertLinkedUsers } from "@/lib/links/linked-user-ids";
import type { TRingStatus } from "@/lib/links/network-schemas";
import { applyDashboardUserStatus } from "@/lib/users/change-user-status-from-dashboard";

export type TRingStatusResult = {
  status: TRingStatus["status"];
  users: { userId: string; changed: boolean; alertsClosed: number }[];
  /** The open cases of the people changed, each told in its history. */
  caseIds: string[];
};

/**
 * Blocks (or sets inactive) people of a user's network in one transaction: each one exactly as a single
 * dashboard block (status change, user.status.block, audit row, open alerts confirmed with the note), one
 * audit row for the ring action itself, and a history line on every open case of theirs. All or nothing.
 */
export async function changeRingStatus({
  clientId,
  userId,
  input,
  actor,
}: {
  clientId: string;
  userId: string;
  input: TRingStatus;
  actor: TDashboardActor;
}): Promise<TRingStatusResult> {
  const { userIds, status, note, closeAlerts } = input;
  await assertLinkedUsers({ clientId, userId, userIds, path: "/userIds" });
  // in id order, so two ring actions over the same people never wait on each other in a cycle
  const ordered = [...userIds].sort();
  return prisma.$transaction(
    async (tx) => {
      const users: TRingStatusResult["users"] = [];
      for (const id of ordered) {
        const result = await applyDashboardUserStatus(tx, {
          clientId,
          userId: id,
          status,
          comment: note,
          closeAlerts,
          actor,
        });
        // assertLinkedUsers found them all; a person deleted since is simply not changed
        if (result) users.push({ userId: id, changed: result.changed, alertsClosed: result.alertsClosed });
      }
      const cases = await tx.case.findMany({
        where: { clientId, subjectType: "user", subjectId: { in: ordered }, status: { not: "closed" } },
        select: { id: true, subjectId: true },
        orderBy: { id: "asc" },
      });
      const byUser = new Map(users.map((u) => [u.userId, u]));
      if (cases.length)
        await tx.caseEvent.createMany({
          data: cases.map((c) => ({
            clientId,
            caseId: c.id,
            type: status === "blocked" ? "user_blocked" : "user_inactive",
            actorId: actor.id,
            note,
            details: {
              userId: c.subjectId,
              ringOf: userId,
              changed: byUser.get(c.subjectId)?.changed ?? false,
              alertsClosed: byUser.get(c.subjectId)?.alertsClosed ?? 0,
            },
          })),
        });
      await tx.auditLog.create({
        data: {
          clientId,
          actorType: "dashboard_user",
          actorId: actor.id,
          action: `users.ring.${status}`,
          entityType: "user",
          entityId: userId,
          details: {
            status,
            note,
            userIds: ordered,
            changed: users.filter((u) => u.changed).map((u) => u.userId),
            caseIds: cases.map((c) => c.id),
            alertsClosed: users.reduce((n, u) => n + u.alertsClosed, 0),
          },
        },
      });
      return { status, users, caseIds: cases.map((c) => c.id) };
    },
    { timeout: 60_000 },
  );
}
