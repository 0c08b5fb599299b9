import type { Case } from "@/lib/generated/prisma/client";
import type { TCaseOutcome, TCaseResponse, TCaseStatus } from "@/lib/cases/schemas";
import type { TCaseSubject } from "@/lib/webhooks/payloads";

export type TAssignee = { id: string; name: string | null; email: string };

export function caseSubject(row: Pick<Case, "subjectType" | "subjectId">): TCaseSubject {
  return { type: row.subjectType as TCaseSubject["type"], id: row.subjectId };
}

/** The API's view of a case (GET /v1/cases, case.closed): never a raw row. */
export function serializeCase(
  row: Case,
  { alertIds, assignee }: { alertIds: string[]; assignee: TAssignee | null },
): TCaseResponse {
  return {
    id: row.id,
    subject: caseSubject(row),
    status: row.status as TCaseStatus,
    priority: row.priority,
    assignee,
    dueAt: row.dueAt.getTime(),
    outcome: (row.outcome as TCaseOutcome | null) ?? null,
    note: row.closeNote,
    reportId: row.reportId,
    alertCount: row.alertCount,
    alertIds,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    closedAt: row.closedAt?.getTime() ?? null,
  };
}
