import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "@/lib/db";
import { conflict, notFound, validationError } from "@/lib/errors/domain-error";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { assertOpen, lockCase, startReview } from "@/lib/cases/case-access";
import { closeLockedCase } from "@/lib/cases/close-case";
import { assertLinkedUsers } from "@/lib/links/linked-user-ids";
import type { TMergeCases } from "@/lib/links/network-schemas";
import { riskRank } from "@/lib/risk/risk-levels";

/**
 * Gathers the open cases of people linked to a case's user into that case: their alerts move to it, each
 * merged case is closed (outcome other) saying where it went, the target's history lists what joined it,
 * and one audit row records the merge. Alerts that arrive later open a case of their own person again.
 * All or nothing: a case that is closed, not a user's, or of someone not linked refuses the whole merge.
 */
export async function mergeLinkedCases({
  clientId,
  caseId,
  input,
  actor,
}: {
  clientId: string;
  caseId: string;
  input: TMergeCases;
  actor: TDashboardActor;
}): Promise<{ id: string; merged: string[]; alertsMoved: number }> {
  const { caseIds, note } = input;
  const target = await prisma.case.findFirst({ where: { clientId, id: caseId } });
  if (!target) throw notFound("/caseId", "Case not found");
  if (caseIds.includes(caseId)) throw validationError(["/caseIds: A case cannot be merged into itself"]);
  if (target.subjectType !== "user") throw conflict("Only a user's case can gather linked cases");
  const sources = await prisma.case.findMany({ where: { clientId, id: { in: caseIds } } });
  const missing = caseIds.filter((id) => !sources.some((s) => s.id === id));
  if (missing.length) throw notFound("/caseIds", `Case not found: ${missing.join(", ")}`);
  if (sources.some((s) => s.subjectType !== "user"))
    throw conflict("Only users' cases can be merged into a user's case");
  await assertLinkedUsers({
    clientId,
    userId: target.subjectId,
    userIds: [...new Set(sources.map((s) => s.subjectId))],
    path: "/caseIds",
  });

  return prisma.$transaction(
    async (tx) => {
      // every case involved, locked in id order: two merges never wait on each other in a cycle
      const all = [caseId, ...caseIds].sort();
      await tx.$queryRaw`SELECT 1 FROM cases WHERE "clientId" = ${clientId} AND id = ANY(${all}) ORDER BY id FOR UPDATE`;
      const into = await lockCase(tx, { clientId, caseId });
      assertOpen(into);
      let alertsMoved = 0;
      let priority = into.priority;
      let dueAt = into.dueAt;
      let lastAlertAt = into.lastAlertAt;
      const userIds: string[] = [];
      for (const id of [...caseIds].sort()) {
        const row = await lockCase(tx, { clientId, caseId: id });
        assertOpen(row);
        const moved = await tx.alert.updateMany({ where: { clientId, caseId: row.id }, data: { caseId } });
        alertsMoved += moved.count;
        if (riskRank(row.priority) > riskRank(priority)) priority = row.priority;
        if (row.dueAt < dueAt) dueAt = row.dueAt;
        if (row.lastAlertAt > lastAlertAt) lastAlertAt = row.lastAlertAt;
        userIds.push(row.subjectId);
        await closeLockedCase(tx, row, {
          outcome: "other",
          note: `Merged into case ${caseId}: ${note}`,
          actor,
        });
        await tx.case.updateMany({ where: { clientId, id: row.id }, data: { alertCount: 0 } });
        await tx.caseEvent.create({
          data: {
            clientId,
            caseId: row.id,
            type: "merged_into",
            actorId: actor.id,
            note,
            details: { caseId, userId: into.subjectId, alertsMoved: moved.count },
          },
        });
      }
      const [{ n }] = await tx.$queryRaw<[{ n: number }]>(Prisma.sql`
        SELECT count(*)::int AS n FROM alerts WHERE "clientId" = ${clientId} AND "caseId" = ${caseId}`);
      await tx.case.updateMany({
        where: { clientId, id: caseId },
        data: { alertCount: n, priority, dueAt, lastAlertAt, updatedAt: new Date() },
      });
      await tx.caseEvent.create({
        data: {
          clientId,
          caseId,
          type: "merged",
          actorId: actor.id,
          note,
          details: { caseIds: [...caseIds].sort(), userIds, alertsMoved },
        },
      });
      await startReview(tx, into, actor);
      await tx.auditLog.create({
        data: {
          clientId,
          actorType: "dashboard_user",
          actorId: actor.id,
          action: "case.merged",
          entityType: "case",
          entityId: caseId,
          details: { caseIds: [...caseIds].sort(), userIds, alertsMoved, note },
        },
      });
      return { id: caseId, merged: [...caseIds].sort(), alertsMoved };
    },
    { timeout: 60_000 },
  );
}
