// GET /dashboard-api/cases: the case inbox page (filters, keyset cursor) of the session's client
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { listCaseInbox } from "@/lib/cases/list-case-inbox";
import { ZCaseInboxQuery } from "@/lib/cases/schemas";

export const GET = dashboardRoute("dashboard.read", async ({ user, query }) =>
  listCaseInbox({ clientId: user.clientId, query: query(ZCaseInboxQuery), viewer: user }),
);
