// /api/inngest: Inngest serve endpoint, called by an Inngest server or by the in-process job driver
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/index";
import { env } from "@/lib/env";
import { inngestServerConfigured } from "@/lib/jobs/signing-key";

export const dynamic = "force-dynamic";

const handler = serve({ client: inngest, functions, servePath: "/api/inngest", serveOrigin: env.APP_URL });

function notServed(): Response {
  return Response.json(
    { message: "No Inngest server is configured; functions run in-process" },
    { status: 405 },
  );
}

type THandler = (req: Request, ctx: unknown) => Promise<Response>;

// The SDK adds Server-Timing to its answers: how long each step of a function took is nobody's business.
function withoutServerTiming(h: THandler): THandler {
  return async (req, ctx) => {
    const res = await h(req, ctx);
    if (!res.headers.has("server-timing")) return res;
    const headers = new Headers(res.headers);
    headers.delete("server-timing");
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}

export const GET = withoutServerTiming(handler.GET as THandler);
export const POST = withoutServerTiming(handler.POST as THandler);
// Sync (PUT) only makes sense with a real Inngest server; otherwise it would make the SDK call out to Inngest Cloud.
export const PUT = inngestServerConfigured() ? withoutServerTiming(handler.PUT as THandler) : notServed;
