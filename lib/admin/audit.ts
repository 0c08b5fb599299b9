import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TSessionUser } from "@/lib/auth/session";

/** One AuditLog row for a dashboard change; call it in the transaction that makes the change. */
export async function writeAudit(
  tx: Tx,
  user: TSessionUser,
  entry: { action: string; entityType: string; entityId: string; details?: Prisma.InputJsonValue },
): Promise<void> {
  await tx.auditLog.create({
    data: {
      clientId: user.clientId,
      actorType: "dashboard_user",
      actorId: user.id,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      ...(entry.details !== undefined && { details: entry.details }),
    },
  });
}
