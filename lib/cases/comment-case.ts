import { prisma } from "@/lib/db";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { assertOpen, lockCase } from "@/lib/cases/case-access";
import type { TCaseComment } from "@/lib/cases/schemas";

/** Dashboard: a reviewer's comment on an open case, kept in its history. */
export async function commentCase(
  input: { clientId: string; caseId: string; actor: TDashboardActor } & TCaseComment,
): Promise<{ id: string }> {
  const { comment } = input;
  return prisma.$transaction(async (tx) => {
    const row = await lockCase(tx, input);
    assertOpen(row);
    const event = await tx.caseEvent.create({
      data: {
        clientId: input.clientId,
        caseId: row.id,
        type: "commented",
        actorId: input.actor.id,
        note: comment,
      },
      select: { id: true },
    });
    return { id: event.id };
  });
}
