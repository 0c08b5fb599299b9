import { can, requirePagePermission } from "@/lib/auth/permissions";
import Link from "next/link";
import { HitChart } from "@/components/rules/hit-chart";
import { statusTone } from "@/components/rules/status-tone";
import { Badge, EnumLabel, LevelBadge, PageHeader, Table, Td } from "@/components/ui";
import { formatDateTimeUtc } from "@/lib/format";
import { listRulesWithHits } from "@/lib/admin/list-rules-with-hits";

export const dynamic = "force-dynamic";

export default async function RulesPage() {
  const user = await requirePagePermission("rules.read");
  const rules = await listRulesWithHits(user, Date.now(), { recent: true });
  const canWrite = can(user.role, "rules.draft");
  const canMapCodes = can(user.role, "settings.manage");
  return (
    <div>
      <PageHeader
        title="Rules"
        subtitle="Hits per day over the last 7 days: alerts opened by active rules; triggered evaluations of dry-run and muted rules."
        actions={
          canWrite && (
            <Link
              href="/dashboard/rules/new"
              className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
            >
              New rule
            </Link>
          )
        }
      />
      <Table
        head={["Rule", "Subject", "Status", "Level", "Action", "24 h", "7 d", "Last 7 days", "Version"]}
        empty={rules.length === 0 && <p className="p-4 text-sm text-slate-500">No rules yet.</p>}
      >
        {rules.map((r) => (
          <tr key={r.ruleId} className="hover:bg-slate-50">
            <Td>
              <Link
                href={`/dashboard/rules/${encodeURIComponent(r.ruleId)}`}
                className="font-medium text-brand-700 hover:underline"
              >
                {r.ruleId}
              </Link>
              <div className="max-w-xs truncate text-xs text-slate-500">{r.name}</div>
              {r.staleIndicators.length > 0 && (
                <div
                  className="max-w-xs break-words text-xs text-red-700"
                  data-testid="rule-stale-indicators"
                >
                  {r.staleIndicators.length === 1
                    ? `Indicator ${r.staleIndicators[0]} is not a code of the active goAML schema`
                    : `Indicators ${r.staleIndicators.join(", ")} are not codes of the active goAML schema`}
                  {canMapCodes && (
                    <>
                      {" · "}
                      <Link href="/dashboard/settings#goaml-misfits" className="underline">
                        map it
                      </Link>
                    </>
                  )}
                </div>
              )}
            </Td>
            <Td>
              <EnumLabel value={r.subject} />
            </Td>
            <Td>
              <Badge tone={statusTone(r.status)}>
                <EnumLabel value={r.status} />
              </Badge>
            </Td>
            <Td>
              <LevelBadge level={r.riskLevel} />
            </Td>
            <Td>
              <EnumLabel value={r.recommendedAction} />
            </Td>
            <Td className="tabular-nums">{r.hits24h}</Td>
            <Td className="tabular-nums">
              {r.sampledSince ? (
                <span title={`Counted on the newest screenings since ${formatDateTimeUtc(r.sampledSince)}`}>
                  ≥ {r.hits7d}
                </span>
              ) : (
                r.hits7d
              )}
            </Td>
            <Td>
              <HitChart daily={r.daily} label={`Hits per day for ${r.ruleId}`} />
            </Td>
            <Td className="text-slate-600">
              {r.liveVersion !== null ? `v${r.liveVersion} live` : "not published"}
              {r.hasDraft && (
                <span className="ml-1">
                  <Badge tone="amber">Draft</Badge>
                </span>
              )}
            </Td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
