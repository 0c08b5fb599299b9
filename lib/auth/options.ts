import type { NextAuthOptions } from "next-auth";
import CredentialsModule from "next-auth/providers/credentials";
import { env } from "@/lib/env";
import { clientAddress, PEER_ADDRESS_HEADER, parseTrustedProxies } from "@/lib/auth/client-address";
import { activeSessionUser, endSessions, isSessionEnded, SessionEnded } from "@/lib/auth/session-version";
import { signInWithPassword } from "@/lib/auth/sign-in";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module "next-auth" {
  interface Session {
    user: { id: string; clientId: string; email: string; name: string | null; role: TDashboardRole };
  }
  interface User {
    clientId: string;
    role: TDashboardRole;
    sessionVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    clientId?: string;
    role?: TDashboardRole;
    /** The user's session version at sign-in. */
    sv?: number;
  }
}

// next-auth 4 ships CommonJS: under plain Node ESM (tsx scripts) the default import is the module object.
const CredentialsProvider =
  (CredentialsModule as unknown as { default?: typeof CredentialsModule }).default ?? CredentialsModule;

const trustedProxies = parseTrustedProxies(env.TRUSTED_PROXIES);

export const authOptions: NextAuthOptions = {
  secret: env.NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  // Errors (wrong password, throttled) come back to the sign-in page as ?error=<code>.
  pages: { signIn: "/login", error: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
        organisation: { label: "Organisation", type: "text" },
      },
      // A SignInRefused thrown here reaches /login as ?error=SignInThrottled, SignInLocked or
      // SignInChooseOrganisation.
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        const headers = (req.headers ?? {}) as Record<string, string | undefined>;
        const user = await signInWithPassword({
          email: credentials.email,
          password: credentials.password,
          organisation: credentials.organisation,
          address: clientAddress({
            peer: headers[PEER_ADDRESS_HEADER],
            forwardedFor: headers["x-forwarded-for"],
            trusted: trustedProxies,
          }),
        });
        if (!user) return null;
        return {
          id: user.id,
          email: user.email,
          name: user.name,
          clientId: user.clientId,
          role: user.role,
          sessionVersion: user.sessionVersion,
        };
      },
    }),
  ],
  events: {
    // Ends every session of the user, including copies of this cookie.
    async signOut({ token }) {
      if (token?.uid) await endSessions(token.uid);
    },
  },
  logger: {
    // A session ended by the check below is routine, not an error worth a stack trace.
    error(code, metadata) {
      if (code === "JWT_SESSION_ERROR" && isSessionEnded(metadata)) return;
      console.error(`[next-auth][error][${code}]`, metadata);
    },
    warn(code) {
      console.warn(`[next-auth][warn][${code}]`);
    },
    debug() {},
  },
  callbacks: {
    // Runs on every use of a session (pages, dashboard routes, /api/auth/session). Throwing ends the
    // session: next-auth answers an empty session and clears the cookie. The user is read afresh, so a
    // copied cookie stops working at sign-out, and a disable, role change or password reset ends every
    // session at once (re-enabling does not revive them: the version has moved).
    async jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.clientId = user.clientId;
        token.role = user.role;
        token.sv = user.sessionVersion;
        return token;
      }
      const current = token.uid ? await activeSessionUser(token.uid, token.sv) : null;
      if (!current) throw new SessionEnded();
      token.clientId = current.clientId;
      token.role = current.role;
      token.email = current.email;
      token.name = current.name;
      return token;
    },
    session({ session, token }) {
      session.user = {
        id: token.uid ?? "",
        clientId: token.clientId ?? "",
        email: token.email ?? "",
        name: token.name ?? null,
        role: token.role ?? "reviewer",
      };
      return session;
    },
  },
};
