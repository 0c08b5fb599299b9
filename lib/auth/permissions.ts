// The one role gate: every dashboard permission and the roles that hold it (decisions §2), checked at the edge.
import { redirect } from "next/navigation";
import { currentUser, ForbiddenError, type TSessionUser } from "@/lib/auth/session";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";

const EVERYONE = ["admin", "reviewer", "reporting_officer"] as const;
// Reporting officers read the reviewers' work but do not settle it: a second pair of eyes.
const REVIEWERS = ["admin", "reviewer"] as const;

export const PERMISSIONS = {
  "dashboard.read": EVERYONE,
  "alerts.review": REVIEWERS,
  "cases.work": REVIEWERS,
  "transactions.confirm": REVIEWERS,
  "users.review": REVIEWERS,
  "reports.read": ["admin", "reporting_officer"],
  "reports.edit": ["reporting_officer"],
  "rules.read": EVERYONE,
  // Reviewers write drafts and dry-runs; only an admin publishes (rule-permissions.ts holds the finer rule).
  "rules.draft": REVIEWERS,
  "rules.manage": ["admin"],
  "lists.manage": ["admin"],
  "settings.manage": ["admin"],
  "team.manage": ["admin"],
  "apiKeys.manage": ["admin"],
  "webhooks.manage": ["admin"],
} as const satisfies Record<string, readonly TDashboardRole[]>;

export type TPermission = keyof typeof PERMISSIONS;

export function can(role: TDashboardRole, permission: TPermission): boolean {
  return (PERMISSIONS[permission] as readonly TDashboardRole[]).includes(role);
}

/** For server actions and dashboard API routes: the signed-in user, or ForbiddenError (401 / 403). */
export async function requirePermission(permission: TPermission): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) throw new ForbiddenError("Not signed in");
  if (!can(user.role, permission)) throw new ForbiddenError();
  return user;
}

/** For pages: redirects to /login when signed out, to the forbidden page when the role lacks the permission. */
export async function requirePagePermission(permission: TPermission): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (!can(user.role, permission)) redirect("/dashboard/forbidden");
  return user;
}
