import { beforeAll, describe, expect, it, vi } from "vitest";

// Sessions end when they should: sign-out (a copy of the cookie too), disable (re-enabling does not revive
// the old cookie), role change and password change. Signed in and out through next-auth's own handler
// (the code behind /api/auth/*), and getServerSession answered by that same handler, as next-auth does it,
// from a cookie jar the test holds: no session is mocked.

// next-auth does not export its core handler; getServerSession and the route call it by file.
const loadAuthHandler = vi.hoisted(() => async () => {
  const { createRequire } = await import("node:module");
  const path = await import("node:path");
  const require = createRequire(import.meta.url);
  return require(path.resolve("node_modules/next-auth/core/index.js")) as {
    AuthHandler: (params: {
      options: unknown;
      req: Record<string, unknown>;
    }) => Promise<{ body?: unknown; cookies?: { name: string; value: string }[]; redirect?: string }>;
  };
});
const HEADERS = vi.hoisted(() => ({ host: "localhost", "x-forwarded-proto": "http" }));
const jar = vi.hoisted(() => ({ cookies: {} as Record<string, string> }));
vi.mock("next-auth", async (importOriginal) => {
  const real = await importOriginal<typeof import("next-auth")>();
  const { AuthHandler } = await loadAuthHandler();
  return {
    ...real,
    getServerSession: async (options: import("next-auth").AuthOptions) => {
      const res = await AuthHandler({
        options,
        req: { action: "session", method: "GET", cookies: { ...jar.cookies }, headers: HEADERS },
      });
      const body = res.body as Record<string, unknown> | undefined;
      return body && Object.keys(body).length ? body : null;
    },
  };
});
const { AuthHandler } = await loadAuthHandler();
const { authOptions } = await import("@/lib/auth/options");
const { newCsrfCookie } = await import("@/lib/auth/csrf-cookie");
const { createDashboardUser } = await import("@/lib/dashboard-users/create-dashboard-user");
const { prisma } = await import("@/lib/db");
const { call, createTestClient } = await import("@/tests/factories");
const casesRoute = await import("@/app/dashboard-api/cases/route");
const disableRoute = await import("@/app/dashboard-api/team/[userId]/disable/route");
const enableRoute = await import("@/app/dashboard-api/team/[userId]/enable/route");

const PASSWORD = "correct horse battery";
const SESSION_COOKIE = "next-auth.session-token";
let clientId: string;

async function member(email: string, role: "admin" | "reviewer") {
  return (await createDashboardUser({ clientId, email, password: PASSWORD, role })).userId;
}

function csrf(): { token: string; cookies: Record<string, string> } {
  const { token, value } = newCsrfCookie(authOptions.secret!);
  return { token, cookies: { "next-auth.csrf-token": value } };
}

/** Signs in through next-auth's credentials callback; the session cookie it sets. */
async function signIn(email: string): Promise<string> {
  const { token, cookies } = csrf();
  const res = await AuthHandler({
    options: authOptions,
    req: {
      action: "callback",
      providerId: "credentials",
      method: "POST",
      cookies,
      headers: HEADERS,
      body: { email, password: PASSWORD, csrfToken: token },
    },
  });
  const session = res.cookies?.find((c) => c.name === SESSION_COOKIE)?.value;
  expect(session, `signed in as ${email}: ${JSON.stringify(res.redirect)}`).toBeTruthy();
  return session!;
}

async function signOut(session: string): Promise<void> {
  const { token, cookies } = csrf();
  await AuthHandler({
    options: authOptions,
    req: {
      action: "signout",
      method: "POST",
      cookies: { ...cookies, [SESSION_COOKIE]: session },
      headers: HEADERS,
      body: { csrfToken: token },
    },
  });
}

/** What /api/auth/session answers for the cookie, and whether it clears it. */
async function sessionFor(session: string) {
  const res = await AuthHandler({
    options: authOptions,
    req: { action: "session", method: "GET", cookies: { [SESSION_COOKIE]: session }, headers: HEADERS },
  });
  const cleared = res.cookies?.some((c) => c.name === SESSION_COOKIE && c.value === "") ?? false;
  return { body: res.body as Record<string, any>, cleared };
}

async function readCases(session: string): Promise<number> {
  jar.cookies = { [SESSION_COOKIE]: session };
  const res = await call(casesRoute.GET, { method: "GET", path: "/dashboard-api/cases" });
  jar.cookies = {};
  return res.status;
}

beforeAll(async () => {
  clientId = (await createTestClient({ name: "sessions" })).clientId;
});

describe("dashboard sessions end", () => {
  it("at sign-out, for a copy of the cookie too, and for the user's other sessions", async () => {
    await member("leaver@session.test", "reviewer");
    const cookie = await signIn("leaver@session.test");
    const otherDevice = await signIn("leaver@session.test");
    const copy = cookie;
    expect(await readCases(cookie)).toBe(200);
    expect((await sessionFor(cookie)).body.user).toMatchObject({ email: "leaver@session.test" });

    await signOut(cookie);
    expect(await readCases(copy)).toBe(401);
    expect(await readCases(otherDevice)).toBe(401);
    const after = await sessionFor(copy);
    expect(after.body).toEqual({});
    expect(after.cleared).toBe(true);
    // signing in again works, with a fresh session
    const fresh = await signIn("leaver@session.test");
    expect(await readCases(fresh)).toBe(200);
  });

  it("at disable, and re-enabling does not revive the old cookie", async () => {
    const adminId = await member("boss@session.test", "admin");
    const userId = await member("disabled@session.test", "reviewer");
    const admin = await signIn("boss@session.test");
    const cookie = await signIn("disabled@session.test");
    expect(await readCases(cookie)).toBe(200);

    jar.cookies = { [SESSION_COOKIE]: admin };
    const disabled = await call(disableRoute.POST, {
      path: `/dashboard-api/team/${userId}/disable`,
      params: { userId },
      body: {},
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(await readCases(cookie)).toBe(401);
    expect((await sessionFor(cookie)).body).toEqual({});

    jar.cookies = { [SESSION_COOKIE]: admin };
    const enabled = await call(enableRoute.POST, {
      path: `/dashboard-api/team/${userId}/enable`,
      params: { userId },
      body: {},
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(await readCases(cookie)).toBe(401);
    expect((await sessionFor(cookie)).body).toEqual({});
    expect(await readCases(await signIn("disabled@session.test"))).toBe(200);
    // the admin's own session was not touched
    expect(await readCases(admin)).toBe(200);
    expect(adminId).toBeTruthy();
  });

  it("at a role change or a new password, by whatever path the row changes", async () => {
    const roleId = await member("promoted@session.test", "reviewer");
    const cookie = await signIn("promoted@session.test");
    await prisma.dashboardUser.update({ where: { id: roleId }, data: { role: "admin" } });
    expect(await readCases(cookie)).toBe(401);
    expect((await sessionFor(cookie)).body).toEqual({});

    const pwId = await member("reset@session.test", "reviewer");
    const before = await signIn("reset@session.test");
    await prisma.$executeRaw`UPDATE dashboard_users SET "passwordHash" = "passwordHash" || '' WHERE id = ${pwId}`;
    // the same hash written back is no change
    expect(await readCases(before)).toBe(200);
    const { passwordHash } = await prisma.dashboardUser.findUniqueOrThrow({ where: { id: roleId } });
    await prisma.dashboardUser.update({ where: { id: pwId }, data: { passwordHash } });
    expect(await readCases(before)).toBe(401);

    // a change that ends nothing (the name) keeps sessions
    const named = await signIn("promoted@session.test");
    await prisma.dashboardUser.update({ where: { id: roleId }, data: { name: "Promoted" } });
    expect(await readCases(named)).toBe(200);
  });
});
