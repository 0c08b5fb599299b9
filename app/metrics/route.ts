// GET /metrics: Prometheus metrics of the instance; 404 unless METRICS_TOKEN is set, then its bearer token
import { timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { metricsText } from "@/lib/ops/metrics";

export const dynamic = "force-dynamic";

function tokenMatches(header: string | null, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function GET(req: Request): Promise<Response> {
  const token = env.METRICS_TOKEN;
  if (!token) return new Response("Not found\n", { status: 404 });
  if (!tokenMatches(req.headers.get("authorization"), token))
    return new Response("Unauthorized\n", { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  const { contentType, text } = await metricsText();
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
