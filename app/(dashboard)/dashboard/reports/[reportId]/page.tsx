import Link from "next/link";
import { notFound } from "next/navigation";
import { IndicatorsForm, MissingFieldsForm, WorkflowPanel } from "@/components/reports/report-forms";
import { AuditTable, ContentTree, StatusBadge } from "@/components/reports/report-views";
import { Badge, Card, ErrorNote, formatTime, PageHeader } from "@/components/ui";
import { requirePageRole } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { ApiError } from "@/lib/http/errors";
import { verifyAuditChain } from "@/lib/reports/audit";
import type { TContent } from "@/lib/reports/content";
import { getReport } from "@/lib/reports/get-report";
import { exportGoamlXml, orderContent, type TGoamlExport } from "@/lib/reports/goaml-xml";
import { EDITABLE_STATUSES } from "@/lib/reports/report-access";
import { readReportProfile, type TReport } from "@/lib/reports/schemas";
import { TRANSITIONS } from "@/lib/reports/transition-report";
import { saveFieldsAction, saveIndicatorsAction, transitionAction } from "../actions";

export const dynamic = "force-dynamic";

export default async function ReportPage({ params }: { params: Promise<{ reportId: string }> }) {
  const user = await requirePageRole(["admin", "reporting_officer"]);
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
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
  const [client, extra, chain] = await Promise.all([
    prisma.client.findUniqueOrThrow({ where: { id: user.clientId }, select: { reportingProfile: true } }),
    prisma.report.findUniqueOrThrow({
      where: { clientId_id: { clientId: user.clientId, id: reportId } },
      select: { preparedById: true },
    }),
    verifyAuditChain({ clientId: user.clientId, reportId }),
  ]);
  const profile = readReportProfile(client.reportingProfile);
  const content = (report.content ?? {}) as TContent;
  // A missing validator must not hide the report: the page says so instead of offering the file.
  const goaml =
    report.incomplete.length === 0
      ? await exportGoamlXml(content, profile).catch((err: unknown): TGoamlExport => ({
          ok: false,
          reason: "invalid",
          errors: [`Validator unavailable: ${String(err)}`],
          xml: "",
        }))
      : null;
  const actorIds = [
    ...new Set((report.audit ?? []).map((a) => a.actorId).concat(extra.preparedById, report.submittedById)),
  ].filter((id): id is string => !!id);
  const people = await prisma.dashboardUser.findMany({
    where: { clientId: user.clientId, id: { in: actorIds } },
    select: { id: true, email: true },
  });
  const actors = Object.fromEntries(people.map((p) => [p.id, p.email]));

  const isOfficer = user.role === "reporting_officer";
  const editable = isOfficer && EDITABLE_STATUSES.includes(report.status);
  const next = TRANSITIONS[report.status];
  const fourEyesBlocked = report.status === "pending_review" && extra.preparedById === user.id;

  return (
    <div className="max-w-6xl space-y-6">
      <PageHeader
        title={report.title ?? `${report.reportType} report ${report.id}`}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={report.status} />
            <Badge>{report.reportType}</Badge>
            <span>Case {report.reportNumber ?? "—"}</span>
            <span>
              · FIU ref <span data-testid="fiu-reference-number">{report.fiuReferenceNumber ?? "—"}</span>
            </span>
            <span>· created {formatTime(report.createdAt)}</span>
            {report.submittedAt && (
              <span data-testid="submitted-at">· filed {formatTime(report.submittedAt)}</span>
            )}
          </span>
        }
        actions={
          <Link href="/dashboard/reports" className="text-sm text-brand-600 hover:underline">
            ← All reports
          </Link>
        }
      />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={`Missing fields (${report.incomplete.length})`}>
          <MissingFieldsForm
            action={saveFieldsAction.bind(null, report.id)}
            paths={report.incomplete}
            disabled={!editable}
          />
        </Card>
        <Card title="Indicators">
          <IndicatorsForm
            action={saveIndicatorsAction.bind(null, report.id)}
            codes={profile.indicatorCodes ?? []}
            selected={report.indicators}
            disabled={!editable}
          />
        </Card>
        <Card title="Workflow">
          <dl className="mb-4 grid grid-cols-2 gap-1 text-sm">
            <dt className="text-slate-500">Prepared by</dt>
            <dd data-testid="prepared-by">
              {extra.preparedById ? (actors[extra.preparedById] ?? extra.preparedById) : "—"}
            </dd>
            <dt className="text-slate-500">Filed by</dt>
            <dd data-testid="filed-by">
              {report.submittedById ? (actors[report.submittedById] ?? report.submittedById) : "—"}
            </dd>
          </dl>
          {!isOfficer && (
            <p className="mb-2 text-sm text-slate-500">Only reporting officers change reports.</p>
          )}
          {fourEyesBlocked && (
            <p
              className="mb-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800"
              data-testid="four-eyes-note"
            >
              You prepared this report: another reporting officer must file it.
            </p>
          )}
          <WorkflowPanel
            action={transitionAction.bind(null, report.id)}
            next={[...next]}
            disabled={!isOfficer}
          />
        </Card>
        <Card title="goAML XML">
          {goaml === null ? (
            <p className="text-sm text-slate-600" data-testid="goaml-incomplete">
              Fill the {report.incomplete.length} missing field(s) to produce a valid goAML file.
            </p>
          ) : goaml.ok ? (
            <div className="space-y-2">
              <p className="text-sm text-emerald-700" data-testid="goaml-valid">
                Valid against the goAML schema.
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
            <div data-testid="goaml-errors" className="space-y-2">
              <ErrorNote>The XML does not validate against the goAML schema:</ErrorNote>
              <ul className="list-disc space-y-1 pl-5 font-mono text-xs text-red-700">
                {goaml.reason === "invalid" && goaml.errors.map((e, i) => <li key={i}>{e}</li>)}
              </ul>
            </div>
          )}
        </Card>
      </div>

      <Card title="Content (goAML)">
        <div className="max-h-[32rem] overflow-auto" data-testid="report-content">
          <ContentTree node={orderContent(content)} />
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
        <AuditTable entries={report.audit ?? []} actors={actors} />
      </Card>
    </div>
  );
}
