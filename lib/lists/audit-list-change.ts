import type { TSessionUser } from "@/lib/auth/session";
import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/** Who changed a list: a dashboard user, or the operator through the CLI. */
export type TListActor = TSessionUser | "cli";

/** The audit row of a list change; written in the transaction that makes the change. */
export async function auditListChange(
  tx: Tx,
  {
    clientId,
    actor,
    action,
    listId,
    details,
  }: {
    clientId: string;
    actor: TListActor;
    action: string;
    listId: string;
    details: Prisma.InputJsonValue;
  },
): Promise<void> {
  await tx.auditLog.create({
    data: {
      clientId,
      actorType: actor === "cli" ? "operator_cli" : "dashboard_user",
      actorId: actor === "cli" ? null : actor.id,
      action,
      entityType: "list",
      entityId: listId,
      details,
    },
  });
}
