import { ForbiddenError, type TSessionUser } from "@/lib/auth/session";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";

export const ADMIN_ONLY: readonly TDashboardRole[] = ["admin"];
export const ALL_ROLES: readonly TDashboardRole[] = ["admin", "reviewer", "reporting_officer"];

/**
 * The role check every admin domain function starts with. Server actions and dashboard routes
 * already call requireRole; checking again here keeps the rule next to the change it guards,
 * so a function called from anywhere cannot skip it.
 */
export function assertRole(user: TSessionUser, roles: readonly TDashboardRole[]): void {
  if (!roles.includes(user.role)) throw new ForbiddenError();
}
