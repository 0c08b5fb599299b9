import { DateTime, PersonName } from "@/components/ui";
import type { TCaseDetail } from "@/lib/cases/get-case-detail";
import { formatEnum, formatPerson } from "@/lib/format";

type TEvent = TCaseDetail["events"][number];

function describe(e: TEvent, people: TCaseDetail["people"]): string {
  const d = (e.details ?? {}) as Record<string, unknown>;
  const person = (id: unknown) =>
    typeof id === "string" && people[id] ? formatPerson(people[id]) : "nobody";
  switch (e.type) {
    case "created":
      return d.migrated ? "Case opened from the alerts on record" : "Case opened by a new alert";
    case "assigned":
      return `Assigned to ${person(d.to)}${e.fromStatus !== e.toStatus ? `, now ${formatEnum(e.toStatus)}` : ""}`;
    case "commented":
      return "Comment";
    case "alerts_reviewed": {
      const n = Array.isArray(d.alertIds) ? d.alertIds.length : 0;
      return `${n} ${n === 1 ? "alert" : "alerts"} ${formatEnum(String(d.status ?? "")).toLowerCase()}`;
    }
    case "user_blocked":
      return d.ringOf ? `User blocked with the network of ${String(d.ringOf)}` : "User blocked";
    case "user_inactive":
      return `User set inactive with the network of ${String(d.ringOf ?? "")}`;
    case "merged": {
      const n = Array.isArray(d.caseIds) ? d.caseIds.length : 0;
      return `${n} linked ${n === 1 ? "case" : "cases"} merged into this one`;
    }
    case "merged_into":
      return `Merged into case ${String(d.caseId ?? "")}`;
    case "escalated":
      return "Escalated to the reporting officers";
    case "closed":
      return `Closed: ${formatEnum(String(d.outcome ?? ""))}`;
    default:
      return `Status ${formatEnum(e.fromStatus)} → ${formatEnum(e.toStatus)}`;
  }
}

/** Every change of the case, oldest first, with who made it and their note. */
export function CaseHistory({ detail }: { detail: TCaseDetail }) {
  return (
    <ol className="space-y-3" data-testid="case-history">
      {detail.events.map((e) => (
        <li key={e.id} className="border-l-2 border-slate-300 pl-3 text-sm" data-event-type={e.type}>
          <div className="font-medium text-slate-900">{describe(e, detail.people)}</div>
          <div className="text-xs text-slate-700">
            <DateTime value={e.createdAt} /> · {e.actor ? <PersonName person={e.actor} /> : "System"}
          </div>
          {e.note && <p className="mt-1 whitespace-pre-wrap text-slate-800">{e.note}</p>}
        </li>
      ))}
    </ol>
  );
}
