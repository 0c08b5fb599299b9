import type { Tx } from "@/lib/db";
import type { Case, Prisma } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/errors/domain-error";
import type { TDashboardActor } from "@/lib/alerts/actor";
import type { TCaseStatus } from "@/lib/cases/schemas";

/**
 * The case row locked for update in the caller's transaction (a new alert joining it waits, and is seen
 * by what follows); another client's case id is not found.
 */
export async function lockCase(
  tx: Tx,
  { clientId, caseId }: { clientId: string; caseId: string },
): Promise<Case> {
  await tx.$queryRaw`SELECT 1 FROM cases WHERE "clientId" = ${clientId} AND id = ${caseId} FOR UPDATE`;
  const row = await tx.case.findFirst({ where: { clientId, id: caseId } });
  if (!row) throw notFound("/caseId", "Case not found");
  return row;
}

/** A closed case is the record of a decision: nothing changes it any more. */
export function assertOpen(row: Case): void {
  if (row.status === "closed") throw conflict("The case is closed; a closed case is read-only");
}

/** Moves the case to `to` and records the change in its history (nothing when it is already there). */
export async function setCaseStatus(
  tx: Tx,
  row: Case,
  {
    to,
    actor,
    note,
    type = "status_changed",
    data = {},
    details,
  }: {
    to: TCaseStatus;
    actor: TDashboardActor | null;
    note?: string | null;
    type?: string;
    data?: Prisma.CaseUpdateManyMutationInput;
    details?: Prisma.InputJsonValue;
  },
): Promise<void> {
  const now = new Date();
  await tx.case.updateMany({
    where: { clientId: row.clientId, id: row.id },
    data: { ...data, status: to, updatedAt: now },
  });
  if (row.status === to && type === "status_changed") return;
  await tx.caseEvent.create({
    data: {
      clientId: row.clientId,
      caseId: row.id,
      type,
      fromStatus: row.status,
      toStatus: to,
      actorId: actor?.id ?? null,
      note: note ?? null,
      ...(details !== undefined && { details }),
      createdAt: now,
    },
  });
}

/** Work on an open case puts it in review (the reviewer has picked it up). */
export async function startReview(tx: Tx, row: Case, actor: TDashboardActor): Promise<void> {
  if (row.status === "open") await setCaseStatus(tx, row, { to: "in_review", actor });
}
