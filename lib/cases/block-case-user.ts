import { prisma } from "@/lib/db";
import { conflict, notFound } from "@/lib/errors/domain-error";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { assertOpen, lockCase, startReview } from "@/lib/cases/case-access";
import type { TBlockCaseUser } from "@/lib/cases/schemas";
import { applyDashboardUserStatus } from "@/lib/users/change-user-status-from-dashboard";

/** Dashboard: blocks the case's user (user.status.block), optionally confirming its open alerts, in the case's history. */
export async function blockCaseUser(
  input: { clientId: string; caseId: string; actor: TDashboardActor } & TBlockCaseUser,
): Promise<{ id: string; userId: string; changed: boolean; alertsClosed: number }> {
  const { clientId, actor, note, closeAlerts } = input;
  return prisma.$transaction(async (tx) => {
    const row = await lockCase(tx, input);
    assertOpen(row);
    if (row.subjectType !== "user") throw conflict("Only a user's case can block its subject");
    const result = await applyDashboardUserStatus(tx, {
      clientId,
      userId: row.subjectId,
      status: "blocked",
      comment: note,
      closeAlerts,
      actor,
    });
    if (!result) throw notFound("/userId", "User not found");
    await tx.caseEvent.create({
      data: {
        clientId,
        caseId: row.id,
        type: "user_blocked",
        actorId: actor.id,
        note,
        details: { userId: row.subjectId, changed: result.changed, alertsClosed: result.alertsClosed },
      },
    });
    await startReview(tx, row, actor);
    return { id: row.id, userId: row.subjectId, changed: result.changed, alertsClosed: result.alertsClosed };
  });
}
