// GET /dashboard-api/settings: client features, actions, reporting profile; PUT: change them
import { ADMIN_ONLY } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { ZUpdateSettings } from "@/lib/admin/schemas";
import { getClientSettings, updateClientSettings } from "@/lib/admin/settings";

export const GET = dashboardRoute(ADMIN_ONLY, async ({ user }) => getClientSettings(user));

export const PUT = dashboardRoute(ADMIN_ONLY, async ({ user, body }) =>
  updateClientSettings(user, await body(ZUpdateSettings)),
);
