import { can } from "@/lib/auth/permission-table";
import { ForbiddenError, type TSessionUser } from "@/lib/auth/session";
import { EVALUATED_STATUSES } from "@/lib/rules/schemas";

/**
 * docs/decisions.md §3: only an admin publishes rules, in any status. A dry-run or muted rule runs on every
 * screening like an active one, so making a version screen (publishing it, switching a rule on) is an
 * admin's. Reviewers write drafts, backtest them, switch a dry-run or muted rule off or between those
 * two; they never touch an active rule. Reporting officers only read rules.
 */
export function assertMayWriteRule(user: TSessionUser, { from, to }: { from?: string; to: string }): void {
  if (can(user.role, "rules.manage")) return;
  if (!can(user.role, "rules.draft"))
    throw new ForbiddenError("Your role can read rules but not change them");
  if (to === "active" || from === "active")
    throw new ForbiddenError("Only an admin can activate a rule or change an active one");
  if (!screens(from) && screens(to)) throw new ForbiddenError("Only an admin can switch a rule on");
}

/** Publishing a version, whatever the status it is published in. */
export function assertMayPublishRule(user: TSessionUser): void {
  if (!can(user.role, "rules.manage")) throw new ForbiddenError("Only an admin can publish a rule");
}

function screens(status: string | undefined): boolean {
  return status !== undefined && (EVALUATED_STATUSES as readonly string[]).includes(status);
}
