import type { z } from "zod";
import { parseWith } from "@/lib/validation/parse";

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

// Clients send a body-less PUT with or without `Content-Length: 0`, and Next may still hand us an
// (empty) stream, so emptiness is decided by peeking at a clone until the first significant byte.
async function isEmptyBody(req: Request): Promise<boolean> {
  if (req.body === null || req.headers.get("content-length") === "0") return true;
  const reader = req.clone().body?.getReader();
  if (!reader) return true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      if (value.some((byte) => !WHITESPACE.has(byte))) return false;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/**
 * For PUT endpoints whose body fields are all optional (block, unblock, status): a request sent
 * with no body at all is the empty object rather than a 400. A body that is sent is parsed normally.
 */
export async function optionalBody<S extends z.ZodType>(
  ctx: { req: Request; body: (schema: S) => Promise<z.infer<S>> },
  schema: S,
): Promise<z.infer<S>> {
  if (await isEmptyBody(ctx.req)) return parseWith(schema, {});
  return ctx.body(schema);
}
