import { requirePagePermission } from "@/lib/auth/permissions";
import Link from "next/link";
import { levelColor, ShareBars, Stat } from "@/components/overview/charts";
import { HourlyBars } from "@/components/overview/hourly-bars";
import { Card, linkClass, PageHeader } from "@/components/ui";
import { formatNumber, formatPerson } from "@/lib/format";
import { getRecentOverview } from "@/lib/overview/get-overview";

export default async function OverviewPage() {
  const user = await requirePagePermission("dashboard.read");
  const o = await getRecentOverview({ clientId: user.clientId });
  const topMax = Math.max(1, ...o.topRules7d.map((r) => r.count));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Overview"
        subtitle={`Signed in as ${formatPerson(user)}. Figures for the last 24 hours unless noted.`}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <Stat
          label="Transactions screened (24 h)"
          value={formatNumber(o.screened24h)}
          testId="stat-screened"
        />
        <Stat
          label="Open alerts"
          value={`${formatNumber(o.openAlerts.count)}${o.openAlerts.capped ? "+" : ""}`}
          hint="waiting for review"
          testId="stat-open-alerts"
        />
        <Stat
          label="Flagged (24 h)"
          value={formatNumber(
            o.byRiskLevel
              .filter((r) => r.key === "high" || r.key === "very_high")
              .reduce((s, r) => s + r.count, 0),
          )}
          hint="high or very high risk"
        />
      </div>
      <Card title="Screenings per hour">
        <HourlyBars points={o.perHour} label="Transactions screened per hour over the last 24 hours" />
      </Card>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="By risk level">
          <ShareBars rows={o.byRiskLevel} testId="share-level" colorFor={levelColor} />
        </Card>
        <Card title="By recommended action">
          <ShareBars rows={o.byAction} testId="share-action" />
        </Card>
        <Card title="Top firing rules (7 days)">
          {o.topRules7d.length === 0 ? (
            <p className="text-sm text-slate-600">No alerts in the last 7 days.</p>
          ) : (
            <ul className="space-y-2" data-testid="top-rules">
              {o.topRules7d.map((r) => (
                <li key={r.ruleId} className="text-sm">
                  <div className="flex justify-between gap-2">
                    <Link
                      href={`/dashboard/alerts?ruleId=${encodeURIComponent(r.ruleId)}&status=all`}
                      className={`truncate ${linkClass}`}
                      title={r.ruleName}
                    >
                      {r.ruleId}
                    </Link>
                    <span className="tabular-nums text-slate-600">{formatNumber(r.count)}</span>
                  </div>
                  <div className="mt-1 h-2 rounded bg-slate-100">
                    <div
                      className="h-2 rounded bg-orange-400"
                      style={{ width: `${(r.count / topMax) * 100}%` }}
                    />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
