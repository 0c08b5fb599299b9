import { prisma } from "@/lib/db";
import { ASSIGNABLE_ROLES } from "@/lib/cases/assign-case";

/** The client's active reviewers and admins, the people a case can be assigned to, by email. */
export async function listAssignees({
  clientId,
}: {
  clientId: string;
}): Promise<{ id: string; name: string | null; email: string }[]> {
  return prisma.dashboardUser.findMany({
    where: { clientId, disabledAt: null, role: { in: [...ASSIGNABLE_ROLES] } },
    select: { id: true, name: true, email: true },
    orderBy: { email: "asc" },
  });
}
