// GET /dashboard-api/audit/export: the filtered audit trail as a CSV download
import { auditCsv } from "@/lib/admin/audit-csv";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { exportAuditLog } from "@/lib/admin/list-audit-log";
import { ZAuditQuery } from "@/lib/admin/schemas";

export const GET = dashboardRoute("audit.read", async ({ user, query }) => {
  const { entries, truncated } = await exportAuditLog(user, query(ZAuditQuery));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(auditCsv(entries), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-trail-${day}.csv"`,
      // the newest rows are in the file; narrow the filters for the rest
      ...(truncated && { "x-truncated": "true" }),
    },
  });
});
