import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";

// Reviewer screens: everyone reads; reporting officers are read-only (they file reports, they do not
// settle alerts, confirm fraud or change user status: a second pair of eyes on the reviewers' work).
export const REVIEW_READ_ROLES: readonly TDashboardRole[] = ["admin", "reviewer", "reporting_officer"];
export const REVIEW_WRITE_ROLES: readonly TDashboardRole[] = ["admin", "reviewer"];
