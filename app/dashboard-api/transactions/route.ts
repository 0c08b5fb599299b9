// GET /dashboard-api/transactions: transactions of the session's client (filters, keyset cursor)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { listTransactions, ZListTransactionsQuery } from "@/lib/transactions/list-transactions";

export const GET = dashboardRoute("dashboard.read", async ({ user, query }) =>
  listTransactions({ clientId: user.clientId, query: query(ZListTransactionsQuery) }),
);
