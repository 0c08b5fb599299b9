import { ForbiddenError, type TSessionUser } from "@/lib/auth/session";

/**
 * decisions §3: only an admin publishes rules. Reviewers may write drafts, dry-runs and other
 * non-deciding states, but may neither make a rule active nor touch one that is active.
 * Reporting officers only read rules.
 */
export function assertMayWriteRule(user: TSessionUser, { from, to }: { from?: string; to: string }): void {
  if (user.role === "admin") return;
  if (user.role !== "reviewer") throw new ForbiddenError("Your role can read rules but not change them");
  if (to === "active" || from === "active")
    throw new ForbiddenError("Only an admin can publish a rule or change an active rule");
}
