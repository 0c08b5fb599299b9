// POST /dashboard-api/api-keys/:keyId/revoke: revoke a key
import { revokeDashboardApiKey } from "@/lib/admin/api-keys";
import { ADMIN_ONLY } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";

export const POST = dashboardRoute<{ keyId: string }>(ADMIN_ONLY, async ({ user, params }) =>
  revokeDashboardApiKey(user, { id: params.keyId }),
);
