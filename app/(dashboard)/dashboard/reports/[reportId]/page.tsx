import { requirePagePermission } from "@/lib/auth/permissions";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AuditTrail } from "@/components/reports/audit-trail";
import { ReportEditor } from "@/components/reports/report-editor";
import { IndicatorsForm, WorkflowPanel } from "@/components/reports/report-forms";
import { ContentTree, StatusBadge } from "@/components/reports/report-views";
import { Badge, Card, ClientText, DateTime, linkClass, PageHeader, PersonName } from "@/components/ui";
import { findEscalatingCase } from "@/lib/cases/find-escalating-case";
import { resolvePeople } from "@/lib/dashboard-users/resolve-people";
import { formatEnum } from "@/lib/format";
import { DomainError } from "@/lib/errors/domain-error";
import type { TContent } from "@/lib/reports/content";
import { describePath, fieldFor } from "@/lib/reports/editor";
import { getReport } from "@/lib/reports/get-report";
import { getReportReview } from "@/lib/reports/get-report-review";
import { activeSchema, orderContent } from "@/lib/reports/goaml-xml";
import { firedRuleIds, indicatorCodes, suggestIndicators } from "@/lib/reports/indicators";
import { reportVerdict, type TReportVerdict } from "@/lib/reports/report-verdict";
import { EDITABLE_STATUSES } from "@/lib/reports/report-access";
import type { TReport } from "@/lib/reports/schemas";
import { goamlDate } from "@/lib/reports/populate-report";
import { fourEyesRefusal, TRANSITIONS } from "@/lib/reports/transition-report";
import { reportWarnings, unconfirmedWarnings } from "@/lib/reports/warnings";
import { editStructureAction, saveFieldsAction, saveIndicatorsAction, transitionAction } from "../actions";

export const dynamic = "force-dynamic";

export default async function ReportPage({ params }: { params: Promise<{ reportId: string }> }) {
  const user = await requirePagePermission("reports.read");
  const { reportId } = await params;
  let report: TReport;
  try {
    // The page view is a read like any other: it goes to the audit trail.
    report = await getReport({
      clientId: user.clientId,
      reportId,
      include: ["content", "audit"],
      actor: { type: "dashboard", id: user.id },
      via: "dashboard",
    });
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
  const content = (report.content ?? {}) as TContent;
  const [{ profile, preparedById, chain, checked }, fromCase] = await Promise.all([
    getReportReview({
      clientId: user.clientId,
      reportId,
      content,
      viewer: { type: "dashboard", id: user.id },
    }),
    findEscalatingCase({ clientId: user.clientId, reportId }),
  ]);
  const active = activeSchema(profile);
  // The verdict is libxml2's answer against the active schema; a failing validator says so instead of guessing.
  const verdict: TReportVerdict = await reportVerdict(content, active, checked).catch(
    (err: unknown): TReportVerdict => ({
      schemaName: active.name,
      valid: false,
      items: [],
      errors: [`The validator could not run: ${String(err)}`],
      groups: [],
      xml: "",
    }),
  );
  const codes = indicatorCodes(active.schema);
  const suggestions = suggestIndicators({
    firedRuleIds: await firedRuleIds({ clientId: user.clientId, transactionIds: report.transactionIds }),
    mapping: profile.indicatorMapping,
    codes,
  });
  const actorIds = [
    ...new Set((report.audit ?? []).map((a) => a.actorId).concat(preparedById, report.submittedById)),
  ].filter((id): id is string => !!id);
  const people = await resolvePeople({ clientId: user.clientId, ids: actorIds });
  const actors = Object.fromEntries(actorIds.map((id) => [id, people.byId(id)]));

  const isOfficer = user.role === "reporting_officer";
  const editable = isOfficer && EDITABLE_STATUSES.includes(report.status);
  const next = TRANSITIONS[report.status];
  const fileBlockedReason =
    report.status === "pending_review" ? fourEyesRefusal(preparedById, user.id) : null;
  // What a regulator would question; review and filing (filed with today's submission date) ask for a note first.
  const now = new Date();
  const warnings = reportWarnings(content, now);
  const toConfirm = unconfirmedWarnings(
    report.status === "pending_review"
      ? reportWarnings({ ...content, submission_date: goamlDate(now) }, now)
      : warnings,
    report.audit ?? [],
  );
  const reviewBlocked = verdict.valid
    ? []
    : verdict.items.length
      ? verdict.items.map((i) => i.text)
      : [`The file does not validate against ${verdict.schemaName}`];

  return (
    <div className="max-w-6xl space-y-6">
      <PageHeader
        title={report.title ?? `${report.reportType} report ${report.id}`}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={report.status} />
            <Badge>{report.reportType}</Badge>
            {report.reportNumber && (
              <span>
                Case number <ClientText value={report.reportNumber} />
              </span>
            )}
            {fromCase && (
              <span data-testid="escalated-from-case">
                · escalated from{" "}
                <Link href={`/dashboard/cases/${encodeURIComponent(fromCase.id)}`} className={linkClass}>
                  case of {fromCase.subjectType} <ClientText value={fromCase.subjectId} />
                </Link>
              </span>
            )}
            <span>
              · FIU ref <span data-testid="fiu-reference-number">{report.fiuReferenceNumber ?? "—"}</span>
            </span>
            <span>
              · created <DateTime value={report.createdAt} />
            </span>
            {report.submittedAt && (
              <span data-testid="submitted-at">
                · filed <DateTime value={report.submittedAt} />
              </span>
            )}
          </span>
        }
        actions={
          <Link href="/dashboard/reports" className={`text-sm ${linkClass}`}>
            ← All reports
          </Link>
        }
      />

      <Card title="goAML file">
        <div data-testid="goaml-verdict" data-valid={verdict.valid ? "true" : "false"}>
          {verdict.valid ? (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm font-medium text-emerald-700" data-testid="goaml-valid">
                Valid against {verdict.schemaName}.
              </p>
              <a
                href={`/api/reports/${encodeURIComponent(report.id)}/goaml`}
                className="inline-block rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
                data-testid="goaml-download"
              >
                Download goAML XML
              </a>
            </div>
          ) : (
            <div className="space-y-2" data-testid="goaml-problems">
              <p className="text-sm font-medium text-red-700">
                Not yet valid against {verdict.schemaName}
                {verdict.items.length > 0 &&
                  `: ${verdict.items.length} thing${verdict.items.length === 1 ? "" : "s"} to fix`}
                .
              </p>
              {verdict.items.length > 0 && (
                <ul className="list-disc pl-5 text-sm text-slate-700">
                  {verdict.items.map((item) => (
                    <li
                      key={item.path}
                      data-testid="verdict-item"
                      data-path={item.path}
                      data-paths={item.paths.join(" ")}
                    >
                      {item.fieldId ? (
                        <a href={`#${item.fieldId}`} className={`inline-block py-1 ${linkClass}`}>
                          {item.text}
                        </a>
                      ) : item.path.startsWith("report_indicators") ? (
                        <a href="#indicators" className={`inline-block py-1 ${linkClass}`}>
                          {item.text}
                        </a>
                      ) : (
                        item.text
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {verdict.items.length === 0 && (
                <ul className="list-disc space-y-1 pl-5 font-mono text-xs text-red-700">
                  {verdict.errors.map((e, i) => (
                    <li key={i}>{e}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
          {warnings.length > 0 && (
            <div
              className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800"
              data-testid="report-warnings"
            >
              <p className="font-medium">
                {warnings.length} warning{warnings.length === 1 ? "" : "s"} to confirm
                {toConfirm.length === 0 ? " (confirmed with a note, see the audit trail)" : ""}:
              </p>
              <ul className="mt-1 list-disc pl-5">
                {warnings.map((w) => {
                  const field = fieldFor(verdict.groups, w.path)?.field.id;
                  return (
                    <li key={w.path} data-testid="warning-item" data-path={w.path} className="break-words">
                      {field ? (
                        <a href={`#${field}`} className={`inline-block py-1 ${linkClass}`}>
                          {describePath(verdict.groups, w.path)}: {w.message}
                        </a>
                      ) : (
                        `${describePath(verdict.groups, w.path)}: ${w.message}`
                      )}
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
        </div>
      </Card>

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Card title="Report fields">
            {!editable && (
              <p className="mb-3 text-sm text-slate-600">
                {isOfficer
                  ? `A ${formatEnum(report.status).toLowerCase()} report is frozen; fields can be changed in draft, amended or resubmission required.`
                  : "Only reporting officers change reports."}
              </p>
            )}
            <ReportEditor
              groups={verdict.groups}
              save={saveFieldsAction.bind(null, report.id)}
              edit={editStructureAction.bind(null, report.id)}
              disabled={!editable}
              warnings={Object.fromEntries(warnings.map((w) => [w.path, w.message]))}
            />
          </Card>
        </div>
        <div className="space-y-6">
          <Card title="Workflow">
            <dl className="mb-4 grid grid-cols-2 gap-1 text-sm">
              <dt className="text-slate-600">Prepared by</dt>
              <dd data-testid="prepared-by" className="truncate">
                <PersonName person={preparedById ? people.byId(preparedById) : null} />
              </dd>
              <dt className="text-slate-600">Filed by</dt>
              <dd data-testid="filed-by" className="truncate">
                <PersonName person={report.submittedById ? people.byId(report.submittedById) : null} />
              </dd>
            </dl>
            {!isOfficer && (
              <p className="mb-2 text-sm text-slate-600">Only reporting officers change reports.</p>
            )}
            <WorkflowPanel
              action={transitionAction.bind(null, report.id)}
              next={[...next]}
              disabled={!isOfficer}
              fileBlockedReason={fileBlockedReason}
              reviewBlockedReasons={reviewBlocked}
              warnings={toConfirm}
            />
          </Card>
          <div id="indicators">
            <Card title="Indicators">
              <IndicatorsForm
                action={saveIndicatorsAction.bind(null, report.id)}
                codes={codes}
                selected={report.indicators}
                suggestions={suggestions}
                schemaName={verdict.schemaName}
                disabled={!editable}
              />
            </Card>
          </div>
        </div>
      </div>

      <Card title="Content (goAML)">
        <div
          className="max-h-[32rem] overflow-auto"
          data-testid="report-content"
          tabIndex={0}
          aria-label="Report content"
        >
          <ContentTree node={orderContent(content, active.schema)} />
        </div>
      </Card>

      <Card
        title="Audit trail"
        actions={
          <span data-testid="audit-chain" data-valid={chain.valid ? "true" : "false"}>
            {chain.valid ? (
              <Badge tone="green">Chain verified · {chain.entries} entries</Badge>
            ) : (
              <Badge tone="red">
                Chain broken at entry {chain.brokenAt}: {chain.reason}
              </Badge>
            )}
          </span>
        }
      >
        <AuditTrail entries={report.audit ?? []} actors={actors} />
      </Card>
    </div>
  );
}
