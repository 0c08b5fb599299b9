import { beforeAll, describe, expect, it, vi } from "vitest";

// The one role gate: every dashboard API route and server action is called signed out and as every role.
// A role without the route's permission gets 403 in the contract body and nothing is written; signed out
// gets 401; a role with it is let through to the domain function. Routes are found on disk.

const session = vi.hoisted(() => ({ current: null as null | { user: { id: string } } }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: () => Promise.resolve(session.current),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { PERMISSIONS, can } = await import("@/lib/auth/permission-table");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { call, createTestClient } = await import("@/tests/factories");
const { countAllRows, discoverActions, discoverDashboardRoutes, expectContractError } =
  await import("@/tests/support/fuzz-routes");

const ROLES = ["admin", "reviewer", "reporting_officer"] as const;
type TRole = (typeof ROLES)[number];

// docs/decisions.md §3, pinned: only admins manage keys, webhooks, settings and the team; only reporting
// officers and admins see reports; reporting officers read the reviewers' work but do not change it.
const PINNED: Record<string, readonly TRole[]> = {
  "GET /dashboard-api/api-keys": ["admin"],
  "POST /dashboard-api/api-keys": ["admin"],
  "POST /dashboard-api/api-keys/{keyId}/revoke": ["admin"],
  "GET /dashboard-api/webhooks": ["admin"],
  "POST /dashboard-api/webhooks": ["admin"],
  "POST /dashboard-api/webhooks/deliveries/{deliveryId}/redeliver": ["admin"],
  "GET /dashboard-api/settings": ["admin"],
  "PUT /dashboard-api/settings": ["admin"],
  "PUT /dashboard-api/settings/goaml-schema": ["admin"],
  "GET /dashboard-api/settings/goaml-codes": ["admin"],
  "POST /dashboard-api/settings/goaml-codes": ["admin"],
  "GET /dashboard-api/lists": ["admin"],
  "POST /dashboard-api/lists": ["admin"],
  "POST /dashboard-api/lists/{listId}/upload": ["admin"],
  "DELETE /dashboard-api/lists/{listId}/entries/{entryId}": ["admin"],
  "GET /dashboard-api/team": ["admin"],
  "POST /dashboard-api/team": ["admin"],
  "POST /dashboard-api/team/{userId}/unlock": ["admin"],
  "POST /dashboard-api/team/{userId}/role": ["admin"],
  "POST /dashboard-api/team/{userId}/reset-password": ["admin"],
  "GET /dashboard-api/audit": ["admin"],
  "GET /dashboard-api/audit/export": ["admin"],
  "POST /dashboard-api/webhooks/deliveries/{deliveryId}/retry-now": ["admin"],
  "POST /dashboard-api/webhooks/{subscriptionId}/redeliver-failed": ["admin"],
  "POST /dashboard-api/account/password": ["admin", "reviewer", "reporting_officer"],
  "GET /api/reports/{reportId}/goaml": ["admin", "reporting_officer"],
  "POST /dashboard-api/alerts/{alertId}/review": ["admin", "reviewer"],
  "POST /dashboard-api/transactions/{transactionId}/confirm": ["admin", "reviewer"],
  "POST /dashboard-api/users/{userId}/status": ["admin", "reviewer"],
  "POST /dashboard-api/users/{userId}/network/status": ["admin", "reviewer"],
  "POST /dashboard-api/cases/{caseId}/merge": ["admin", "reviewer"],
  "GET /dashboard-api/users/{userId}/network": ["admin", "reviewer", "reporting_officer"],
  "GET /dashboard-api/transactions": ["admin", "reviewer", "reporting_officer"],
  // a dry-run or muted rule runs on every screening: publishing is an admin's, in any status
  "POST /dashboard-api/rules/{ruleId}/publish": ["admin"],
};

const users = {} as Record<TRole, string>;

beforeAll(async () => {
  const { clientId } = await createTestClient({ name: "perm" });
  for (const role of ROLES)
    users[role] = (
      await createDashboardUser({
        clientId,
        email: `perm-${role}@example.test`,
        password: "correct horse battery",
        role,
        name: `Perm ${role}`,
      })
    ).userId;
});

function signIn(role: TRole | null) {
  session.current = role ? { user: { id: users[role] } } : null;
}

async function callAs(
  role: TRole | null,
  route: Awaited<ReturnType<typeof discoverDashboardRoutes>>[number],
) {
  signIn(role);
  const path = route.key.split(" ")[1]!;
  const params = Object.fromEntries(route.params.map((p) => [p, `no-such-${p}`]));
  const body = route.method === "GET" || route.method === "DELETE" ? undefined : {};
  return call(route.handler, { method: route.method, path, params, body });
}

describe("dashboard permissions", () => {
  it("gates every dashboard API route with a named permission of the one table", async () => {
    const routes = await discoverDashboardRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const ungated = routes.filter((r) => !r.handler.permission || !(r.handler.permission in PERMISSIONS));
    expect(
      ungated.map((r) => r.key),
      "wrap these in dashboardRoute(permission, …)",
    ).toEqual([]);
    for (const [key, roles] of Object.entries(PINNED)) {
      const route = routes.find((r) => r.key === key);
      expect(route, key).toBeDefined();
      const allowed = ROLES.filter((role) =>
        can(role, route!.handler.permission as keyof typeof PERMISSIONS),
      );
      expect(allowed, key).toEqual(roles);
    }
  });

  it("answers 401 signed out and 403 to a role without the permission, writing nothing", async () => {
    let refused = 0;
    for (const route of await discoverDashboardRoutes()) {
      const permission = route.handler.permission as keyof typeof PERMISSIONS;
      const rowsBefore = await countAllRows();
      const signedOut = await callAs(null, route);
      expect(signedOut.status, `${route.key} signed out`).toBe(401);
      expectContractError(signedOut, `${route.key} signed out`);
      for (const role of ROLES.filter((r) => !can(r, permission))) {
        const res = await callAs(role, route);
        expect(res.status, `${route.key} as ${role}`).toBe(403);
        expectContractError(res, `${route.key} as ${role}`);
        expect(res.body.error.type).toBe("FORBIDDEN");
        refused++;
      }
      expect(await countAllRows(), `${route.key} wrote rows while refusing`).toEqual(rowsBefore);
    }
    // admin-only and officer-only routes exist, so refusals are not vacuous
    expect(refused).toBeGreaterThan(20);
    signIn(null);
  });

  it("lets a role with the permission through to the domain function", async () => {
    for (const route of await discoverDashboardRoutes()) {
      const permission = route.handler.permission as keyof typeof PERMISSIONS;
      for (const role of ROLES.filter((r) => can(r, permission))) {
        const res = await callAs(role, route);
        // Unknown ids answer 404 and the empty body 400; the gate itself let the call in.
        expect([401, 403, 500], `${route.key} as ${role}: ${JSON.stringify(res.body)}`).not.toContain(
          res.status,
        );
      }
    }
    signIn(null);
  });

  // A hostile page can make the browser send the session cookie with a form post (another port or a sibling
  // subdomain is "same site" and gets it even under SameSite=Lax). Every state-changing route refuses a
  // request that does not say it came from this origin, and every body but JSON, before any work.
  it("refuses every state-changing route called from another origin or without an Origin", async () => {
    const writes = (await discoverDashboardRoutes()).filter((r) => r.method !== "GET");
    expect(writes.length).toBeGreaterThan(30);
    const forgeries: [string, Record<string, string | undefined>][] = [
      ["foreign origin", { origin: "http://evil.example", "sec-fetch-site": "cross-site" }],
      ["foreign origin, no fetch metadata", { origin: "http://evil.example" }],
      ["same-site sibling port", { origin: "http://localhost:8080", "sec-fetch-site": "same-site" }],
      ["opaque origin", { origin: "null" }],
      ["missing origin", { origin: undefined }],
      ["missing origin, cross-site fetch", { origin: undefined, "sec-fetch-site": "cross-site" }],
      ["right origin but cross-site fetch", { "sec-fetch-site": "cross-site" }],
    ];
    for (const route of writes) {
      const role = ROLES.find((r) => can(r, route.handler.permission as keyof typeof PERMISSIONS))!;
      signIn(role);
      const path = route.key.split(" ")[1]!;
      const params = Object.fromEntries(route.params.map((p) => [p, `no-such-${p}`]));
      const rowsBefore = await countAllRows();
      for (const [what, headers] of forgeries) {
        const res = await call(route.handler, { method: route.method, path, params, body: {}, headers });
        expect(res.status, `${route.key}: ${what}`).toBe(403);
        expectContractError(res, `${route.key}: ${what}`);
        expect(res.body.error.message, `${route.key}: ${what}`).toMatch(/^Cross-origin request refused/);
      }
      // What an HTML form can send without a preflight, from this very origin.
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]) {
        const res = await call(route.handler, {
          method: route.method,
          path,
          params,
          rawBody: type.startsWith("text") ? "{}" : "a=b",
          headers: { "content-type": type },
        });
        expect(res.status, `${route.key} with ${type}`).toBe(400);
        expectContractError(res, `${route.key} with ${type}`);
        expect(res.body.error.details[0], route.key).toMatch(
          /^\/: Content-Type must be application\/(json|xml)/,
        );
      }
      expect(await countAllRows(), `${route.key} wrote rows while refusing`).toEqual(rowsBefore);
    }
    signIn(null);
  });

  it("accepts the configured public URL's origin and the request's own host", async () => {
    const route = (await discoverDashboardRoutes()).find((r) => r.key === "POST /dashboard-api/api-keys")!;
    signIn("admin");
    const behindProxy = await call(route.handler, {
      path: "/dashboard-api/api-keys",
      body: { name: "proxied" },
      headers: { origin: "https://risk.example.com", "x-forwarded-host": "risk.example.com" },
    });
    expect(behindProxy.status, JSON.stringify(behindProxy.body)).toBe(200);
    const sameOrigin = await call(route.handler, {
      path: "/dashboard-api/api-keys",
      body: { name: "same origin" },
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(sameOrigin.status, JSON.stringify(sameOrigin.body)).toBe(200);
    signIn(null);
  });

  // Found by an attacker: `{"from":-8640000000000001}` on backtests and `expiresAt: 8640000000000001` on list
  // entries were 500s. Every time a dashboard route reads is within 1970..9999, or a 400 naming the field.
  it("refuses times outside 1970..9999 on the dashboard routes with a 400 naming the field", async () => {
    const routes = new Map((await discoverDashboardRoutes()).map((r) => [r.key, r]));
    signIn("admin");
    const cases: [string, { body?: unknown; query?: Record<string, string> }, string][] = [];
    for (const t of [-8_640_000_000_000_001, 8_640_000_000_000_001, 253_402_300_800_000]) {
      cases.push(["POST /dashboard-api/backtests", { body: { ruleId: "r", from: t, to: 1 } }, "/from"]);
      cases.push(["POST /dashboard-api/backtests", { body: { ruleId: "r", from: 1, to: t } }, "/to"]);
      cases.push([
        "POST /dashboard-api/lists/{listId}/entries",
        { body: { value: "1.2.3.4", expiresAt: t } },
        "/expiresAt",
      ]);
      for (const key of ["from", "to"]) {
        cases.push(["GET /dashboard-api/alerts", { query: { [key]: String(t) } }, `/${key}`]);
      }
    }
    for (const day of ["0000-01-01", "2026-13-45", "9999-99-99"])
      cases.push(["GET /dashboard-api/transactions", { query: { from: day } }, "/from"]);
    for (const [key, input, field] of cases) {
      const route = routes.get(key)!;
      const rows = await countAllRows();
      const res = await call(route.handler, {
        method: route.method,
        path: key.split(" ")[1],
        params: Object.fromEntries(route.params.map((p) => [p, `no-such-${p}`])),
        ...input,
      });
      const context = `${key} ${JSON.stringify(input)}`;
      expect(res.status, `${context}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(
        res.body.error.details.some((d: string) => d.startsWith(`${field}: `)),
        `${context}: ${JSON.stringify(res.body)}`,
      ).toBe(true);
      expect(await countAllRows()).toEqual(rows);
    }
    signIn(null);
  });

  it("lets only reporting officers run the report server actions", async () => {
    const actions = (await discoverActions()).filter((a) =>
      a.key.startsWith("(dashboard)/dashboard/reports/"),
    );
    expect(actions.length).toBeGreaterThan(0);
    const args = (key: string): unknown[] => {
      if (key.endsWith("#saveFieldsAction")) return ["no-such-report", [{ paths: ["reason"], value: "x" }]];
      if (key.endsWith("#editStructureAction"))
        return ["no-such-report", { op: "remove", paths: ["reason"] }];
      const form = new FormData();
      form.append("to", "pending_review");
      return ["no-such-report", null, form];
    };
    for (const action of actions)
      for (const role of ROLES) {
        signIn(role);
        const rowsBefore = await countAllRows();
        const result = (await action.fn(...args(action.key))) as { ok: boolean; error: string | null };
        expect(result.ok, `${action.key} as ${role}`).toBe(false);
        if (role === "reporting_officer") expect(result.error, action.key).toMatch(/not found/i);
        else expect(result.error, `${action.key} as ${role}`).toMatch(/only reporting officers/i);
        expect(await countAllRows()).toEqual(rowsBefore);
      }
    signIn(null);
  });
});
