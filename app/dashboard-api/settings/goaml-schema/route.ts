// PUT /dashboard-api/settings/goaml-schema?name=…: upload the FIU's goAML XSD (raw body); DELETE: back to generic
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { resetGoamlSchema, setGoamlSchema } from "@/lib/admin/goaml-schema";
import { ApiError, errorResponse } from "@/lib/http/errors";

// National schemas with long annotated lookup lists run to a few MiB; more is not an XSD.
const MAX_XSD_BYTES = 8 * 1024 * 1024;

function tooLarge(): Response {
  return errorResponse(new ApiError(413, "PAYLOAD_TOO_LARGE", "The schema is larger than 8 MiB"));
}

export const PUT = dashboardRoute(
  "settings.manage",
  async ({ user, request }) => {
    if (Number(request.headers.get("content-length") ?? "0") > MAX_XSD_BYTES) return tooLarge();
    const xsd = await request.text();
    if (Buffer.byteLength(xsd) > MAX_XSD_BYTES) return tooLarge();
    const name = new URL(request.url).searchParams.get("name") ?? "";
    return setGoamlSchema(user, { name, xsd });
  },
  { bodyTypes: ["application/xml", "text/xml"] },
);

export const DELETE = dashboardRoute("settings.manage", async ({ user }) => resetGoamlSchema(user));
