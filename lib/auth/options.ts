import type { NextAuthOptions } from "next-auth";
import CredentialsModule from "next-auth/providers/credentials";
import { env } from "@/lib/env";
import { clientAddress, signInWithPassword } from "@/lib/auth/sign-in";
import type { TDashboardRole } from "@/lib/dashboard-users/create-dashboard-user";

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module "next-auth" {
  interface Session {
    user: { id: string; clientId: string; email: string; name: string | null; role: TDashboardRole };
  }
  interface User {
    clientId: string;
    role: TDashboardRole;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    clientId?: string;
    role?: TDashboardRole;
  }
}

// next-auth 4 ships CommonJS: under plain Node ESM (tsx scripts) the default import is the module object.
const CredentialsProvider =
  (CredentialsModule as unknown as { default?: typeof CredentialsModule }).default ?? CredentialsModule;

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
      },
      // A SignInRefused thrown here reaches /login as ?error=SignInThrottled or ?error=SignInLocked.
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        const forwarded = (req.headers as Record<string, string | undefined> | undefined)?.[
          "x-forwarded-for"
        ];
        const user = await signInWithPassword({
          email: credentials.email,
          password: credentials.password,
          address: clientAddress(forwarded),
        });
        if (!user) return null;
        return { id: user.id, email: user.email, name: user.name, clientId: user.clientId, role: user.role };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.clientId = user.clientId;
        token.role = user.role;
      }
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
