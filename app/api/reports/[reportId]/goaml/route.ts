// GET /api/reports/{reportId}/goaml: the goAML XML of a report for reporting officers and admins, validated first
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ApiError, errorResponse } from "@/lib/http/errors";
import { downloadGoaml } from "@/lib/reports/download-goaml";
import { problemDetail } from "@/lib/reports/goaml-xml";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute<{ reportId: string }>("reports.read", async ({ user, params }) => {
  const { reportId } = params;
  const result = await downloadGoaml({
    clientId: user.clientId,
    reportId,
    actor: { type: "dashboard", id: user.id },
  });
  // The service's one error body; 422: the request is fine, the report is not ready to export.
  if (!result.ok)
    return errorResponse(
      result.reason === "incomplete"
        ? new ApiError(
            422,
            "VALIDATION_ERROR",
            "The report is incomplete",
            result.problems.map(problemDetail),
          )
        : new ApiError(
            422,
            "VALIDATION_ERROR",
            "The goAML XML does not validate against the schema",
            result.errors,
          ),
    );
  return new Response(result.xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${reportId.replace(/[^\w.-]/g, "_")}-goaml.xml"`,
      "Cache-Control": "no-store",
    },
  });
});
