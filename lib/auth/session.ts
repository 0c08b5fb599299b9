import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
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

/** The signed-in dashboard user, re-read from the database so disabled users and role changes apply at once. */
export async function currentUser(): Promise<TSessionUser | null> {
  const session = await getServerSession(authOptions);
  if (!session?.user?.id) return null;
  const user = await prisma.dashboardUser.findUnique({ where: { id: session.user.id } });
  if (!user || user.disabledAt) return null;
  return { id: user.id, clientId: user.clientId, email: user.email, name: user.name, role: user.role };
}

/** For pages: redirects to /login when signed out, to /dashboard?denied=1 when the role is not allowed. */
export async function requirePageRole(roles?: readonly TDashboardRole[]): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (roles && !roles.includes(user.role)) redirect("/dashboard/forbidden");
  return user;
}

/** For server actions and dashboard API routes: throws ForbiddenError when not allowed. */
export async function requireRole(roles?: readonly TDashboardRole[]): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) throw new ForbiddenError("Not signed in");
  if (roles && !roles.includes(user.role)) throw new ForbiddenError();
  return user;
}
