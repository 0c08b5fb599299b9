import { prisma } from "@/lib/db";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { assignLockedCase } from "@/lib/cases/assign-case";
import { lockCase } from "@/lib/cases/case-access";

/**
 * "Next case": the reviewer's own or an unassigned case that is due first (open or in review; escalated
 * cases wait for the reporting officers), assigned to the reviewer. Two reviewers asking at once get
 * different cases (SKIP LOCKED). null when nothing is waiting.
 */
export async function takeNextCase({
  clientId,
  actor,
}: {
  clientId: string;
  actor: TDashboardActor;
}): Promise<{ id: string } | null> {
  return prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM cases
      WHERE "clientId" = ${clientId} AND status IN ('open', 'in_review')
        AND ("assigneeId" IS NULL OR "assigneeId" = ${actor.id})
      ORDER BY "dueAt", id
      LIMIT 1
      FOR UPDATE SKIP LOCKED`;
    const first = rows[0];
    if (!first) return null;
    const row = await lockCase(tx, { clientId, caseId: first.id });
    await assignLockedCase(tx, row, { assigneeId: actor.id, actor });
    return { id: row.id };
  });
}
