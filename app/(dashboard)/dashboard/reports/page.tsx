import { requirePagePermission } from "@/lib/auth/permissions";
import Link from "next/link";
import { StatusBadge } from "@/components/reports/report-views";
import { Badge, DateTime, inputClass, linkClass, PageHeader, Table, Td } from "@/components/ui";
import { formatEnum } from "@/lib/format";
import { listReports } from "@/lib/reports/list-reports";
import {
  REPORT_STATUSES,
  REPORT_TYPES,
  ZListReportsQuery,
  type TListReportsQuery,
} from "@/lib/reports/schemas";

export const dynamic = "force-dynamic";

const FILTERS = ["status", "reportType", "userId", "transactionId", "reportNumber"] as const;
const PAGE_SIZE = "20";

export default async function ReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePagePermission("reports.read");
  const raw = await searchParams;
  const given: Record<string, string> = {};
  for (const key of [...FILTERS, "page"]) {
    const v = raw[key];
    if (typeof v === "string" && v.trim()) given[key] = v.trim();
  }
  const parsed = ZListReportsQuery.safeParse({ ...given, limit: PAGE_SIZE });
  const query: TListReportsQuery = parsed.success ? parsed.data : { limit: Number(PAGE_SIZE) };
  const { reports, total, page, pages } = await listReports({ clientId: user.clientId, query });
  const link = (p: number) =>
    `/dashboard/reports?${new URLSearchParams({ ...given, page: String(p) }).toString()}`;

  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Reports"
        subtitle="Regulatory report drafts and filings. Visible to reporting officers and admins only."
      />
      <form
        method="get"
        className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
        data-testid="report-filters"
      >
        <label className="text-sm">
          <span className="text-slate-600">Status</span>
          <select
            name="status"
            defaultValue={given.status ?? ""}
            className={`${inputClass} mt-1`}
            data-testid="filter-status"
          >
            <option value="">Any</option>
            {REPORT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {formatEnum(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="text-slate-600">Type</span>
          <select
            name="reportType"
            defaultValue={given.reportType ?? ""}
            className={`${inputClass} mt-1`}
            data-testid="filter-type"
          >
            <option value="">Any</option>
            {REPORT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        {(["userId", "transactionId", "reportNumber"] as const).map((key) => (
          <label key={key} className="text-sm">
            <span className="text-slate-600">
              {key === "userId" ? "User id" : key === "transactionId" ? "Transaction id" : "Case number"}
            </span>
            <input
              name={key}
              defaultValue={given[key] ?? ""}
              className={`${inputClass} mt-1 w-44`}
              data-testid={`filter-${key}`}
            />
          </label>
        ))}
        <button
          type="submit"
          className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
          data-testid="apply-filters"
        >
          Filter
        </button>
        <Link href="/dashboard/reports" className="py-1.5 text-sm text-slate-600 hover:underline">
          Clear
        </Link>
      </form>
      {!parsed.success && (
        <p className="mb-3 text-sm text-red-700">Some filters were invalid and were ignored.</p>
      )}
      <Table
        head={["Report", "Type", "Status", "Case", "FIU ref", "User", "Tx", "Created", "Filed"]}
        empty={
          reports.length === 0 ? <p className="p-4 text-sm text-slate-600">No reports match.</p> : undefined
        }
      >
        {reports.map((r) => (
          <tr key={r.id} data-testid="report-row" data-report-id={r.id}>
            <Td className="min-w-48 whitespace-normal">
              <Link
                href={`/dashboard/reports/${encodeURIComponent(r.id)}`}
                className={`font-medium ${linkClass}`}
              >
                {r.title ?? r.id}
              </Link>
            </Td>
            <Td>
              <Badge>{r.reportType}</Badge>
            </Td>
            <Td>
              <StatusBadge status={r.status} />
            </Td>
            <Td>{r.reportNumber ?? "—"}</Td>
            <Td>{r.fiuReferenceNumber ?? "—"}</Td>
            <Td className="max-w-40 whitespace-normal break-words font-mono text-xs">{r.userId ?? "—"}</Td>
            <Td>{r.transactionCount}</Td>
            <Td>
              <DateTime value={r.createdAt} dateOnly />
            </Td>
            <Td>{r.submittedAt ? <DateTime value={r.submittedAt} dateOnly /> : "—"}</Td>
          </tr>
        ))}
      </Table>
      <div
        className="mt-3 flex items-center justify-between text-sm text-slate-600"
        data-testid="report-pagination"
      >
        <span>
          {total} report{total === 1 ? "" : "s"} · page {page} of {Math.max(pages, 1)}
        </span>
        <span className="flex gap-3">
          {page > 1 && <Link href={link(page - 1)}>← Previous</Link>}
          {page < pages && <Link href={link(page + 1)}>Next →</Link>}
        </span>
      </div>
    </div>
  );
}
