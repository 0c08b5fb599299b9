import Link from "next/link";
import { notFound } from "next/navigation";
import { CaseActivity } from "@/components/cases/case-activity";
import { CaseStatusBadge, OverdueBadge, PriorityBadge } from "@/components/cases/case-badges";
import { CaseHistory } from "@/components/cases/case-history";
import { CaseWorkbench } from "@/components/cases/case-workbench";
import { NetworkView } from "@/components/links/network-view";
import { ClientText, Card, DateTime, EnumLabel, PageHeader, PersonName } from "@/components/ui";
import { can, requirePagePermission } from "@/lib/auth/permissions";
import { getCaseDetail, type TCaseDetail } from "@/lib/cases/get-case-detail";
import { DomainError } from "@/lib/errors/domain-error";

export default async function CasePage({ params }: { params: Promise<{ caseId: string }> }) {
  const user = await requirePagePermission("dashboard.read");
  const { caseId } = await params;
  let detail: TCaseDetail;
  try {
    detail = await getCaseDetail({ clientId: user.clientId, caseId, viewer: user });
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
  const c = detail.case;
  const s = detail.subject;
  const subjectName = s.name ?? s.id;
  const mergedInto = detail.events.findLast((e) => e.type === "merged_into")?.details as
    { caseId?: string } | undefined;
  return (
    <div className="space-y-6">
      <PageHeader
        title={
          <>
            Case: <ClientText value={subjectName} />
          </>
        }
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <CaseStatusBadge status={c.status} />
            <PriorityBadge priority={c.priority} />
            <span>
              Due <DateTime value={c.dueAt} />
            </span>
            {c.overdue && <OverdueBadge />}
            <span>Assignee: {c.assignee ? <PersonName person={c.assignee} /> : "Unassigned"}</span>
          </span>
        }
      />
      {c.status === "closed" && (
        <p
          role="note"
          className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900"
          data-testid="case-closed-note"
        >
          This case is closed ({<EnumLabel value={c.outcome} />}) by <PersonName person={c.closedBy} /> on{" "}
          <DateTime value={c.closedAt} />: “{c.note}”. It is read-only.
          {mergedInto?.caseId && (
            <>
              {" "}
              <Link
                className="font-medium underline"
                href={`/dashboard/cases/${encodeURIComponent(mergedInto.caseId)}`}
                data-testid="merged-into"
              >
                Open the case it was merged into
              </Link>
            </>
          )}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          <CaseWorkbench detail={detail} canWork={can(user.role, "cases.work")} />
          <Card title="Transactions over time">
            <CaseActivity activity={detail.activity} />
          </Card>
        </div>
        <div className="space-y-6">
          <Card title="Subject">
            <dl className="space-y-1 text-sm">
              <div>
                <dt className="sr-only">Name</dt>
                <dd className="font-medium">
                  {s.type === "user" ? (
                    <Link
                      className="text-brand-700 hover:underline"
                      href={`/dashboard/users/${encodeURIComponent(s.id)}`}
                    >
                      {subjectName}
                    </Link>
                  ) : (
                    subjectName
                  )}
                </dd>
              </div>
              <div className="text-slate-700">
                <dt className="inline">{s.type === "user" ? "User id" : "Merchant id"}: </dt>
                <dd className="inline font-mono">{s.id}</dd>
              </div>
              {s.email && (
                <div className="text-slate-700">
                  <dt className="inline">Email: </dt>
                  <dd className="inline">{s.email}</dd>
                </div>
              )}
              {s.status && (
                <div className="text-slate-700">
                  <dt className="inline">Status: </dt>
                  <dd className="inline" data-testid="subject-status">
                    <EnumLabel value={s.status} />
                  </dd>
                </div>
              )}
              {s.riskLevel && (
                <div className="text-slate-700">
                  <dt className="inline">Onboarding risk: </dt>
                  <dd className="inline">
                    <EnumLabel value={s.riskLevel} />
                  </dd>
                </div>
              )}
            </dl>
          </Card>
          {c.report && (
            <Card title="Report">
              <p className="text-sm" data-testid="case-report">
                {/* Reviewers cannot open reports: they are told where the case went, not given a bare id */}
                {can(user.role, "reports.read") ? (
                  <Link className="text-brand-700 hover:underline" href={`/dashboard/reports/${c.report.id}`}>
                    Open the report
                  </Link>
                ) : (
                  "With the reporting officers"
                )}{" "}
                (<EnumLabel value={c.report.status} />)
                <span className="block font-mono text-xs text-slate-600 [overflow-wrap:anywhere]">
                  {c.report.id}
                </span>
              </p>
            </Card>
          )}
          {detail.userComments.length > 0 && (
            <Card title="Comments on the user">
              <ul className="space-y-2 text-sm" data-testid="user-comments">
                {detail.userComments.map((m) => (
                  <li key={m.id}>
                    <p className="whitespace-pre-wrap text-slate-900">{m.comment}</p>
                    <p className="text-xs text-slate-700">
                      {m.commenter} · <DateTime value={m.createdAt} />
                    </p>
                  </li>
                ))}
              </ul>
            </Card>
          )}
          <Card title="History">
            <CaseHistory detail={detail} />
          </Card>
        </div>
      </div>
      {s.type === "user" && (
        <Card title={<span id="network-title">Network: who this person is linked to</span>}>
          <NetworkView
            userId={s.id}
            canAct={can(user.role, "users.review")}
            caseId={c.status !== "closed" && can(user.role, "cases.work") ? c.id : undefined}
          />
        </Card>
      )}
    </div>
  );
}
