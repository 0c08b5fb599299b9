// GET /dashboard-api/settings/goaml-codes: what no longer fits the active goAML schema; POST: map stale codes
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { mapStaleCodes, schemaMisfits } from "@/lib/admin/goaml-fit";
import { ZMapGoamlCodes } from "@/lib/admin/schemas";

export const GET = dashboardRoute("settings.manage", async ({ user }) => schemaMisfits(user.clientId));

export const POST = dashboardRoute("settings.manage", async ({ user, body }) =>
  mapStaleCodes(user, (await body(ZMapGoamlCodes)).mappings),
);
