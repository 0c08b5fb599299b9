// GET /dashboard-api/audit: the client's audit trail, newest first (actorId, action, entityType, entityId, from, to, cursor)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { listAuditLog } from "@/lib/admin/list-audit-log";
import { ZAuditQuery } from "@/lib/admin/schemas";

export const GET = dashboardRoute("audit.read", async ({ user, query }) =>
  listAuditLog(user, query(ZAuditQuery)),
);
