// PUT /dashboard-api/settings/goaml-schema?name=…: upload the FIU's goAML XSD (raw body); DELETE: back to generic
import { adminErrorResponse } from "@/lib/admin/dashboard-route";
import { resetGoamlSchema, setGoamlSchema } from "@/lib/admin/goaml-schema";
import { requireRole } from "@/lib/auth/session";
import { ApiError, errorResponse } from "@/lib/http/errors";

// National schemas with long annotated lookup lists run to a few MiB; more is not an XSD.
const MAX_XSD_BYTES = 8 * 1024 * 1024;

export async function PUT(req: Request): Promise<Response> {
  try {
    const user = await requireRole(["admin"]);
    if (Number(req.headers.get("content-length") ?? "0") > MAX_XSD_BYTES)
      return errorResponse(new ApiError(413, "PAYLOAD_TOO_LARGE", "The schema is larger than 8 MiB"));
    const xsd = await req.text();
    if (Buffer.byteLength(xsd) > MAX_XSD_BYTES)
      return errorResponse(new ApiError(413, "PAYLOAD_TOO_LARGE", "The schema is larger than 8 MiB"));
    const name = new URL(req.url).searchParams.get("name") ?? "";
    return Response.json(await setGoamlSchema(user, { name, xsd }));
  } catch (err) {
    return adminErrorResponse(err);
  }
}

export async function DELETE(): Promise<Response> {
  try {
    return Response.json(await resetGoamlSchema(await requireRole(["admin"])));
  } catch (err) {
    return adminErrorResponse(err);
  }
}
