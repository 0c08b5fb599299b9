// The one role gate: every dashboard permission and the roles that hold it (docs/decisions.md §3). Pure, so the
// browser can hide what the server would refuse; the server checks it in dashboardRoute and server actions.
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
  // Reviewers write and backtest drafts; only an admin publishes, in any status (rule-permissions.ts
  // holds the finer rule for status changes).
  "rules.draft": REVIEWERS,
  "rules.manage": ["admin"],
  "lists.manage": ["admin"],
  "settings.manage": ["admin"],
  "team.manage": ["admin"],
  "apiKeys.manage": ["admin"],
  "webhooks.manage": ["admin"],
  "audit.read": ["admin"],
  // Setting one's own password: the only thing allowed while a reset is pending.
  "account.password": EVERYONE,
} as const satisfies Record<string, readonly TDashboardRole[]>;

export type TPermission = keyof typeof PERMISSIONS;

export function can(role: TDashboardRole, permission: TPermission): boolean {
  return (PERMISSIONS[permission] as readonly TDashboardRole[]).includes(role);
}

/** A role's home after signing in: the reviewer works cases, the officer reports, the admin watches the overview. */
export function homePath(role: TDashboardRole): string {
  if (role === "reviewer") return "/dashboard/cases";
  if (role === "reporting_officer") return "/dashboard/reports";
  return "/dashboard";
}
