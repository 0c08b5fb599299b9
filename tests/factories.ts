import { createApiKey } from "@/lib/auth/api-keys";
import { createClient } from "@/lib/clients/create-client";
import { prisma } from "@/lib/db";
import type { TFeature } from "@/lib/clients/schemas";
import type { TRecommendedAction } from "@/lib/risk/risk-levels";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { waitFor } from "@/tests/support/webhook-receiver";

// Shared by tests and the seed: build clients and call route handlers without a server.
export async function createTestClient(
  opts: {
    type?: "business" | "consumer";
    features?: TFeature[];
    actions?: TRecommendedAction[];
    name?: string;
  } = {},
): Promise<{ clientId: string; apiKey: string }> {
  return createClient({
    name: opts.name ?? "Test client",
    type: opts.type ?? "consumer",
    features: opts.features ?? [],
    actions: opts.actions,
  });
}

export async function extraKey(clientId: string): Promise<string> {
  return (await createApiKey({ clientId })).apiKey;
}

type TRouteHandler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

export type TCall = {
  method?: string;
  apiKey?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string | undefined>;
  params?: Record<string, string | string[]>;
  query?: Record<string, string>;
  path?: string;
};

/** Calls a route handler as Next.js would; answers { status, body, headers }. */
export async function call(
  handler: TRouteHandler,
  opts: TCall = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const path = opts.path ?? "/v1/test";
  // The dashboard API refuses state-changing calls without this site's Origin, as a browser sends it on
  // every POST; the /v1 API ignores it. A header given as undefined is left out.
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    "content-type": "application/json",
    origin: "http://localhost",
    ...(opts.headers ?? {}),
  }))
    if (v !== undefined) headers[k] = v;
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const url = new URL(`http://localhost${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const req = new Request(url, { method: opts.method ?? (body ? "POST" : "GET"), headers, body });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** A webhook delivery once the background driver has moved it to `status`. */
export function deliverySettled(deliveryId: string, status: "delivered" | "failed") {
  return waitFor(
    async () => {
      const d = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      return d.status === status ? d : null;
    },
    30_000,
    `delivery ${deliveryId} to be ${status}`,
  );
}

/**
 * A `user.status.block` event emitted for the client (its subscriptions to that event must exist): the client's
 * first webhook delivery.
 */
export async function emitTestDelivery(clientId: string) {
  await prisma.$transaction((tx) =>
    emitWebhookEvent(tx, {
      clientId,
      event: "user.status.block",
      payload: { id: "u1", status: "blocked", reason: "fraud", updatedAt: 1 },
    }),
  );
  return prisma.webhookDelivery.findFirstOrThrow({ where: { clientId } });
}
