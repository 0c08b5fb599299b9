import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { csrfCookieName, newCsrfCookie, readCsrfCookie } from "@/lib/auth/csrf-cookie";
import { env, isProduction } from "@/lib/env";
import { contentSecurityPolicy } from "@/lib/security/content-security-policy";

/**
 * Every page: a fresh CSP nonce (request header for Next.js's own scripts, response header for the
 * browser). /dashboard: a session or a redirect to /login. /login: next-auth's CSRF cookie and its
 * token for the form, so that signing in works before (or without) any script.
 */
export async function proxy(req: NextRequest): Promise<NextResponse> {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = contentSecurityPolicy(nonce, { dev: !isProduction });
  // next-auth's rule for Secure cookies: the configured URL, else the protocol the request came by.
  const proto = req.headers.get("x-forwarded-proto") ?? req.nextUrl.protocol.replace(":", "");
  const secure = (env.NEXTAUTH_URL ?? `${proto}://`).startsWith("https://");
  const secret = env.NEXTAUTH_SECRET ?? "";

  const { pathname, search } = req.nextUrl;
  if (pathname === "/dashboard" || pathname.startsWith("/dashboard/")) {
    const token = await getToken({ req, secret, secureCookie: secure });
    if (!token) {
      const login = new URL("/login", req.url);
      login.searchParams.set("callbackUrl", `${pathname}${search}`);
      return NextResponse.redirect(login);
    }
  }

  const headers = new Headers(req.headers);
  headers.set("content-security-policy", csp);
  headers.set("x-nonce", nonce);
  let freshCsrf: string | null = null;
  if (pathname === "/login") {
    let token = readCsrfCookie(req.cookies.get(csrfCookieName(secure))?.value, secret);
    if (!token) {
      const created = newCsrfCookie(secret);
      token = created.token;
      freshCsrf = created.value;
    }
    headers.set("x-login-csrf", token);
  }
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("Content-Security-Policy", csp);
  if (freshCsrf) {
    res.cookies.set(csrfCookieName(secure), freshCsrf, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
    });
  }
  return res;
}

export const config = {
  // Pages only: the JSON API, next-auth, the probes, metrics and static files get their headers from
  // next.config.mjs (a probe polled every second needs no session lookup or nonce).
  matcher: [
    "/((?!v1/|v1$|api/|dashboard-api/|healthz$|readyz$|metrics$|_next/static|_next/image|favicon.ico).*)",
  ],
};
