// GET /dashboard-api/api-keys: the client's keys; POST: create one (the key is in this answer only)
import { createDashboardApiKey, listApiKeys } from "@/lib/admin/api-keys";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZCreateApiKeyInput } from "@/lib/admin/schemas";

export const GET = dashboardRoute("apiKeys.manage", async ({ user }) => ({ keys: await listApiKeys(user) }));

export const POST = dashboardRoute("apiKeys.manage", async ({ user, body }) =>
  createDashboardApiKey(user, await body(ZCreateApiKeyInput)),
);
