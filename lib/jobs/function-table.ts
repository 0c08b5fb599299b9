import type { InngestFunction } from "inngest";

export type TJobFunction = {
  /** `<appId>-<fnId>`, the `fnId` query parameter of the serve endpoint. */
  id: string;
  events: string[];
  maxAttempts: number;
  /**
   * `batchEvents.maxSize` of a function that takes its events in batches: the driver hands it up to
   * that many pending events in one run (`events`). Absent: one run per event.
   */
  batchSize?: number;
};

// The SDK's default when a function sets no `retries` (4 retries, 5 attempts).
const DEFAULT_RETRIES = 4;

type TFunctionLike = InngestFunction.Any;

/** What the driver needs to know of each function: its serve id, its event triggers, its attempts. */
export function describeFunctions(appId: string, functions: readonly TFunctionLike[]): TJobFunction[] {
  return functions.map((fn) => {
    const opts = fn.opts as {
      retries?: number;
      triggers?: Array<{ event?: unknown }>;
      batchEvents?: { maxSize?: number };
    };
    const events = (opts.triggers ?? []).flatMap((t) => (typeof t.event === "string" ? [t.event] : []));
    const maxSize = Math.floor(opts.batchEvents?.maxSize ?? 0);
    return {
      id: fn.id(appId),
      events,
      maxAttempts: (opts.retries ?? DEFAULT_RETRIES) + 1,
      ...(maxSize > 1 ? { batchSize: maxSize } : {}),
    };
  });
}
