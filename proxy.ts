import { withAuth } from "next-auth/middleware";
import { env } from "@/lib/env";

export const proxy = withAuth({ secret: env.NEXTAUTH_SECRET, pages: { signIn: "/login" } });

export const config = { matcher: ["/dashboard/:path*"] };
