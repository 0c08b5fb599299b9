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

export const GET = handler.GET;
export const POST = handler.POST;
// Sync (PUT) only makes sense with a real Inngest server; otherwise it would make the SDK call out to Inngest Cloud.
export const PUT = inngestServerConfigured() ? handler.PUT : notServed;
