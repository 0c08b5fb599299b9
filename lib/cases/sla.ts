import { prisma } from "@/lib/db";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { CASE_PRIORITIES, type TCaseSla } from "@/lib/cases/schemas";

/** Hours to work a case of each priority; the database's case_sla_hours() holds the same defaults. */
export const DEFAULT_CASE_SLA_HOURS: TCaseSla = {
  very_high: 4,
  high: 24,
  medium: 72,
  medium_low: 120,
  low: 168,
};

/** The client's SLA per priority, defaults filling any level it does not set. */
export function readCaseSla(stored: unknown): TCaseSla {
  const out = { ...DEFAULT_CASE_SLA_HOURS };
  if (stored && typeof stored === "object" && !Array.isArray(stored)) {
    for (const level of CASE_PRIORITIES) {
      const v = (stored as Record<string, unknown>)[level];
      if (typeof v === "number" && v > 0) out[level] = v;
    }
  }
  return out;
}

export async function getCaseSla({ clientId }: { clientId: string }): Promise<TCaseSla> {
  const client = await prisma.client.findUniqueOrThrow({
    where: { id: clientId },
    select: { caseSlaHours: true },
  });
  return readCaseSla(client.caseSlaHours);
}

/**
 * Admin: sets the SLA hours per priority, audited in the same transaction. New cases, and cases whose
 * priority rises, take their due time from it; due times already set stay (a promise already made).
 */
export async function updateCaseSla({
  clientId,
  actor,
  sla,
}: {
  clientId: string;
  actor: TDashboardActor;
  sla: TCaseSla;
}): Promise<TCaseSla> {
  const next = sla;
  return prisma.$transaction(async (tx) => {
    const client = await tx.client.findUniqueOrThrow({
      where: { id: clientId },
      select: { caseSlaHours: true },
    });
    await tx.client.update({ where: { id: clientId }, data: { caseSlaHours: next } });
    await tx.auditLog.create({
      data: {
        clientId,
        actorType: "dashboard_user",
        actorId: actor.id,
        action: "settings.case_sla.updated",
        entityType: "client",
        entityId: clientId,
        details: { from: readCaseSla(client.caseSlaHours), to: next },
      },
    });
    return next;
  });
}
