// GET /api/reports/{reportId}/goaml: the goAML XML of a report for reporting officers and admins, validated first
import { ForbiddenError, requireRole } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { downloadGoaml } from "@/lib/reports/download-goaml";

export const dynamic = "force-dynamic";

export async function GET(
  _req: Request,
  { params }: { params: Promise<{ reportId: string }> },
): Promise<Response> {
  try {
    const user = await requireRole(["reporting_officer", "admin"]);
    const { reportId } = await params;
    const result = await downloadGoaml({
      clientId: user.clientId,
      reportId,
      actor: { type: "dashboard", id: user.id },
    });
    if (!result.ok)
      return Response.json(
        result.reason === "incomplete"
          ? { error: "The report is incomplete", missing: result.missing }
          : { error: "The goAML XML does not validate against the schema", errors: result.errors },
        { status: 422 },
      );
    return new Response(result.xml, {
      headers: {
        "Content-Type": "application/xml; charset=utf-8",
        "Content-Disposition": `attachment; filename="${reportId.replace(/[^\w.-]/g, "_")}-goaml.xml"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (err) {
    if (err instanceof ForbiddenError) return Response.json({ error: err.message }, { status: 403 });
    if (err instanceof ApiError) return Response.json({ error: err.message }, { status: err.status });
    throw err;
  }
}
