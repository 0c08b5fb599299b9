// Dashboard sessions are JWTs in a cookie; what makes one end before it expires is the user's session
// version (dashboard_users."sessionVersion"), read on every use of the session.
import { prisma } from "@/lib/db";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";

export class SessionEnded extends Error {
  constructor() {
    super("Session ended");
    this.name = "SessionEnded";
  }
}

export function isSessionEnded(value: unknown): boolean {
  if (value instanceof SessionEnded) return true;
  const error = (value as { error?: unknown } | null)?.error;
  return error instanceof SessionEnded || (error as Error | undefined)?.name === "SessionEnded";
}

export type TActiveSessionUser = {
  id: string;
  clientId: string;
  email: string;
  name: string | null;
  role: TDashboardRole;
};

/** The user behind a session, or null when it is disabled, gone, or signed in at an older version. */
export async function activeSessionUser(
  id: string,
  version: number | undefined,
): Promise<TActiveSessionUser | null> {
  const user = await prisma.dashboardUser.findUnique({
    where: { id },
    select: {
      id: true,
      clientId: true,
      email: true,
      name: true,
      role: true,
      disabledAt: true,
      sessionVersion: true,
    },
  });
  if (!user || user.disabledAt || user.sessionVersion !== (version ?? 0)) return null;
  return { id: user.id, clientId: user.clientId, email: user.email, name: user.name, role: user.role };
}

/** Ends every session of the user (sign-out; the database trigger does it on role, password and disable). */
export async function endSessions(id: string): Promise<void> {
  await prisma.dashboardUser.updateMany({ where: { id }, data: { sessionVersion: { increment: 1 } } });
}
