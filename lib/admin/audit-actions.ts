// What each audit action means, in words, and where its object lives on the dashboard. Pure: the audit
// page's filter lists it in the browser, the server writes it into the CSV.

export const AUDIT_ACTIONS: Record<string, string> = {
  "alert.assigned": "Took an alert",
  "alert.created": "Alert raised",
  "alert.reviewed": "Reviewed an alert",
  "alert.unassigned": "Released an alert",
  "api_key.created": "Created an API key",
  "api_key.revoked": "Revoked an API key",
  "case.assigned": "Assigned a case",
  "case.closed": "Closed a case",
  "case.escalated": "Escalated a case",
  "case.unassigned": "Unassigned a case",
  "client.configured": "Changed the settings",
  "client.goaml_codes_mapped": "Mapped goAML codes to the active schema",
  "client.goaml_schema_changed": "Changed the goAML schema",
  "dashboard_user.created": "Added a team member",
  "dashboard_user.disabled": "Disabled a team member",
  "dashboard_user.enabled": "Enabled a team member",
  "dashboard_user.password_reset": "Reset a team member's password",
  "dashboard_user.password_changed": "Set a new password",
  "dashboard_user.role_changed": "Changed a team member's role",
  "dashboard_user.unlocked": "Unlocked a team member's sign-in",
  "list.created": "Created a list",
  "list.entries_imported": "Imported list entries",
  "list.entries_replaced": "Replaced all list entries",
  "list.entry_added": "Added a list entry",
  "list.entry_removed": "Removed a list entry",
  "list.entry_updated": "Updated a list entry's note",
  "rule.created": "Created a rule",
  "rule.published": "Published a rule",
  "rule.status_changed": "Changed a rule's status",
  "rule.switched_off": "Switched a rule off",
  "rule.updated": "Saved a rule draft",
  "sanctions.false_match.marked": "Marked a sanctions false match",
  "sanctions.false_match.removed": "Removed a sanctions false match",
  "settings.case_sla.updated": "Changed the case deadlines",
  "sign_in.failed": "Sign-in failed",
  "sign_in.locked": "Sign-in locked",
  "sign_in.succeeded": "Signed in",
  "transaction.confirmedChargeback": "Confirmed a chargeback",
  "transaction.confirmedFraud": "Confirmed fraud",
  "user.status.active": "Set a user active",
  "user.status.blocked": "Blocked a user",
  "user.status.inactive": "Set a user inactive",
  "webhook.created": "Created a webhook subscription",
  "webhook.disabled": "Disabled a webhook subscription",
  "webhook.redelivered": "Redelivered a webhook",
  "webhook.redelivered_failed": "Redelivered a subscription's failed webhooks",
  "webhook.retried_now": "Retried a webhook now",
};

/** An action in words; an action this table does not know yet reads as its code, never as nothing. */
export function auditActionLabel(action: string): string {
  return AUDIT_ACTIONS[action] ?? action;
}

export const AUDIT_OBJECT_TYPES: Record<string, string> = {
  alert: "Alert",
  api_key: "API key",
  case: "Case",
  client: "Settings",
  dashboard_user: "Team member",
  list: "List",
  rule: "Rule",
  transaction: "Transaction",
  user: "User",
  webhook_delivery: "Webhook delivery",
  webhook_subscription: "Webhook subscription",
};

/** The dashboard page of an audited object, or null when it has none of its own. */
export function auditObjectHref(entityType: string, entityId: string, caseId?: string | null): string | null {
  const id = encodeURIComponent(entityId);
  switch (entityType) {
    case "rule":
      return `/dashboard/rules/${id}`;
    case "case":
      return `/dashboard/cases/${id}`;
    case "alert":
      return caseId ? `/dashboard/cases/${encodeURIComponent(caseId)}` : null;
    case "transaction":
      return `/dashboard/transactions/${id}`;
    case "user":
      return `/dashboard/users/${id}`;
    case "list":
      return `/dashboard/lists/${id}`;
    case "dashboard_user":
      return "/dashboard/team";
    case "api_key":
      return "/dashboard/api-keys";
    case "webhook_subscription":
    case "webhook_delivery":
      return "/dashboard/webhooks";
    case "client":
      return "/dashboard/settings";
    default:
      return null;
  }
}
