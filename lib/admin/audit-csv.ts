import type { TAuditEntry } from "@/lib/admin/list-audit-log";
import { csvDocument } from "@/lib/csv/write-csv";

const HEADER = ["time", "actor", "actor email", "action", "action code", "object type", "object", "details"];

/** The audit trail as CSV: every client-supplied text passes through csvCell (no formulas run). */
export function auditCsv(entries: readonly TAuditEntry[]): string {
  const rows = entries.map((e) => {
    const actor =
      e.actor?.name?.trim() ||
      e.actor?.email ||
      (e.actorType === "operator_cli" ? "Operator (CLI)" : e.actorType);
    return [
      new Date(e.at).toISOString(),
      actor,
      e.actor?.email ?? "",
      e.actionLabel,
      e.action,
      e.entityType,
      e.entityLabel ? `${e.entityLabel} (${e.entityId})` : e.entityId,
      e.details === null ? "" : JSON.stringify(e.details),
    ];
  });
  return csvDocument(HEADER, rows);
}
