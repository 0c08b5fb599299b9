// GET /healthz: the process is alive (no database, no key), for a liveness probe
import { isDraining } from "@/lib/ops/lifecycle";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(
    { status: "ok", draining: isDraining() },
    { headers: { "Cache-Control": "no-store" } },
  );
}
