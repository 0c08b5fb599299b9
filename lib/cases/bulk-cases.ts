import { prisma } from "@/lib/db";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { assignLockedCase, checkAssignee } from "@/lib/cases/assign-case";
import { assertOpen, lockCase } from "@/lib/cases/case-access";
import { closeLockedCase } from "@/lib/cases/close-case";
import type { TBulkCases } from "@/lib/cases/schemas";

/**
 * Inbox bulk actions: assign the selected cases, or close them as false positives with one note. All or
 * nothing: an unknown or closed case refuses the whole request and changes nothing.
 */
export async function bulkCases({
  clientId,
  actor,
  input,
}: {
  clientId: string;
  actor: TDashboardActor;
  input: TBulkCases;
}): Promise<{ updated: number }> {
  const body = input;
  const caseIds = [...new Set(body.caseIds)].sort();
  await prisma.$transaction(
    async (tx) => {
      if (body.action === "assign") await checkAssignee(tx, clientId, body.assigneeId);
      // locked in id order, so two bulk requests never wait on each other in a cycle
      for (const caseId of caseIds) {
        const row = await lockCase(tx, { clientId, caseId });
        assertOpen(row);
        if (body.action === "assign") await assignLockedCase(tx, row, { assigneeId: body.assigneeId, actor });
        else await closeLockedCase(tx, row, { outcome: "false_positive", note: body.note, actor });
      }
    },
    { timeout: 60_000 },
  );
  return { updated: caseIds.length };
}
