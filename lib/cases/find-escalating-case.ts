import { prisma } from "@/lib/db";

/** The case whose escalation created a report (a report made through the API or by hand has none). */
export async function findEscalatingCase({
  clientId,
  reportId,
}: {
  clientId: string;
  reportId: string;
}): Promise<{ id: string; subjectType: string; subjectId: string; status: string } | null> {
  return prisma.case.findFirst({
    where: { clientId, reportId },
    select: { id: true, subjectType: true, subjectId: true, status: true },
  });
}
