// POST /dashboard-api/api-keys/:keyId/revoke: revoke a key
import { revokeDashboardApiKey } from "@/lib/admin/api-keys";
import { dashboardRoute } from "@/lib/http/dashboard-route";

export const POST = dashboardRoute<{ keyId: string }>("apiKeys.manage", async ({ user, params }) =>
  revokeDashboardApiKey(user, { id: params.keyId }),
);
