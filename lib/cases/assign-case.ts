import { prisma, type Tx } from "@/lib/db";
import type { Case } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/errors/domain-error";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { assertOpen, lockCase, setCaseStatus } from "@/lib/cases/case-access";
import type { TAssignCase, TCaseStatus } from "@/lib/cases/schemas";

/** Roles that work cases, so the only ones a case can be assigned to. */
export const ASSIGNABLE_ROLES = ["admin", "reviewer"] as const;

/** 404 unless the id is an active reviewer or admin of the client. */
export async function checkAssignee(tx: Tx, clientId: string, assigneeId: string | null): Promise<void> {
  if (assigneeId === null) return;
  const person = await tx.dashboardUser.findFirst({
    where: { clientId, id: assigneeId, disabledAt: null, role: { in: [...ASSIGNABLE_ROLES] } },
    select: { id: true },
  });
  if (!person) throw notFound("/assigneeId", "Reviewer not found");
}

/** Assigns a locked, open case (an open case goes in review), recorded in its history and audited. */
export async function assignLockedCase(
  tx: Tx,
  row: Case,
  { assigneeId, actor }: { assigneeId: string | null; actor: TDashboardActor },
): Promise<void> {
  if (row.assigneeId === assigneeId) return;
  const to: TCaseStatus = assigneeId && row.status === "open" ? "in_review" : (row.status as TCaseStatus);
  await setCaseStatus(tx, row, {
    to,
    actor,
    type: "assigned",
    data: { assigneeId },
    details: { from: row.assigneeId, to: assigneeId },
  });
  await tx.auditLog.create({
    data: {
      clientId: row.clientId,
      actorType: "dashboard_user",
      actorId: actor.id,
      action: assigneeId ? "case.assigned" : "case.unassigned",
      entityType: "case",
      entityId: row.id,
      details: { from: row.assigneeId, to: assigneeId },
    },
  });
}

/** Dashboard: assigns a case to a reviewer (or nobody). */
export async function assignCase(
  input: { clientId: string; caseId: string; actor: TDashboardActor } & TAssignCase,
): Promise<{ id: string; assigneeId: string | null }> {
  const { assigneeId } = input;
  await prisma.$transaction(async (tx) => {
    const row = await lockCase(tx, input);
    assertOpen(row);
    await checkAssignee(tx, input.clientId, assigneeId);
    await assignLockedCase(tx, row, { assigneeId, actor: input.actor });
  });
  return { id: input.caseId, assigneeId };
}
