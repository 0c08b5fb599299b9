import { getServerSession } from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { prisma } from "@/lib/db";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";

export type TSessionUser = {
  id: string;
  clientId: string;
  email: string;
  name: string | null;
  role: TDashboardRole;
};

export class ForbiddenError extends Error {
  constructor(message = "You do not have permission to do this") {
    super(message);
  }
}

/**
 * The signed-in dashboard user, re-read from the database so disabled users and role changes apply at once.
 * next-auth's jwt callback has already refused a session that sign-out, a disable, a role change or a
 * password reset ended (lib/auth/options.ts).
 */
export async function currentUser(): Promise<TSessionUser | null> {
  const session = await getServerSession(authOptions);
  if (!session?.user?.id) return null;
  const user = await prisma.dashboardUser.findUnique({ where: { id: session.user.id } });
  if (!user || user.disabledAt) return null;
  return { id: user.id, clientId: user.clientId, email: user.email, name: user.name, role: user.role };
}
