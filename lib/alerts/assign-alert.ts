import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import type { TDashboardActor } from "@/lib/alerts/actor";

/**
 * Assigns an alert to the acting dashboard user ("assign to me"), or releases it when `assign`
 * is false (only the assignee's own claim: releasing someone else's alert is a no-op). Audited.
 */
export async function assignAlert({
  clientId,
  alertId,
  actor,
  assign = true,
}: {
  clientId: string;
  alertId: string;
  actor: TDashboardActor;
  assign?: boolean;
}): Promise<{ id: string; assignedToId: string | null }> {
  return prisma.$transaction(async (tx) => {
    const alert = await tx.alert.findFirst({
      where: { id: alertId, clientId },
      select: { assignedToId: true },
    });
    if (!alert) throw notFound("/alertId", "Alert not found");
    const next = assign ? actor.id : alert.assignedToId === actor.id ? null : alert.assignedToId;
    if (next === alert.assignedToId) return { id: alertId, assignedToId: next };
    await tx.alert.updateMany({ where: { id: alertId, clientId }, data: { assignedToId: next } });
    await tx.auditLog.create({
      data: {
        clientId,
        actorType: "dashboard_user",
        actorId: actor.id,
        action: assign ? "alert.assigned" : "alert.unassigned",
        entityType: "alert",
        entityId: alertId,
        details: { from: alert.assignedToId, to: next },
      },
    });
    return { id: alertId, assignedToId: next };
  });
}
