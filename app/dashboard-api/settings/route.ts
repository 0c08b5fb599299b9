// GET /dashboard-api/settings: client features, actions, reporting profile; PUT: change them
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZUpdateSettings } from "@/lib/admin/schemas";
import { getClientSettings, updateClientSettings } from "@/lib/admin/settings";

export const GET = dashboardRoute("settings.manage", async ({ user }) => getClientSettings(user));

export const PUT = dashboardRoute("settings.manage", async ({ user, body }) =>
  updateClientSettings(user, await body(ZUpdateSettings)),
);
