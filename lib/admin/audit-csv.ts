import type { TAuditEntry } from "@/lib/admin/list-audit-log";
import { csvRow } from "@/lib/csv/csv-cell";

const HEADER = ["time", "actor", "actor email", "action", "action code", "object type", "object", "details"];

/** The audit trail as CSV: every client-supplied text passes through csvCell (no formulas run). */
export function auditCsv(entries: readonly TAuditEntry[]): string {
  let out = csvRow(HEADER);
  for (const e of entries) {
    const actor =
      e.actor?.name?.trim() ||
      e.actor?.email ||
      (e.actorType === "operator_cli" ? "Operator (CLI)" : e.actorType);
    out += csvRow([
      new Date(e.at).toISOString(),
      actor,
      e.actor?.email ?? "",
      e.actionLabel,
      e.action,
      e.entityType,
      e.entityLabel ? `${e.entityLabel} (${e.entityId})` : e.entityId,
      e.details === null ? "" : JSON.stringify(e.details),
    ]);
  }
  return out;
}
