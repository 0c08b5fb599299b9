// GET /readyz: 200 when this process should receive traffic, 503 naming the failed check (no key)
import { checkReadiness } from "@/lib/ops/check-readiness";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { ready, checks } = await checkReadiness();
  return Response.json(
    { status: ready ? "ready" : "not ready", checks },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
