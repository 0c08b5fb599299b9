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
  /**
   * The function's version (1 unless declared): a run records the version that created it, and a
   * driver claims only the runs of the (id, version) pairs it serves. Bump it when a change to the
   * function's steps means a run started by the previous build cannot be continued by this one.
   */
  version: number;
};

/**
 * The job protocol of this build: 1 was the driver that dispatched every outbox event through its own
 * function table and claimed any run; 2 records function versions on runs, dispatches only the events
 * it knows and marks the rows it dispatched with its protocol (`outbox_events."dispatchedBy"`).
 */
export const JOB_PROTOCOL = 2;

// The SDK's default when a function sets no `retries` (4 retries, 5 attempts).
const DEFAULT_RETRIES = 4;

type TFunctionLike = InngestFunction.Any;

/**
 * What the driver needs to know of each function: its serve id, its event triggers, its attempts and
 * its version (`versions`, by the function's own id; 1 when absent).
 */
export function describeFunctions(
  appId: string,
  functions: readonly TFunctionLike[],
  versions: Readonly<Record<string, number>> = {},
): TJobFunction[] {
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
      version: versions[(fn.opts as { id: string }).id] ?? 1,
      ...(maxSize > 1 ? { batchSize: maxSize } : {}),
    };
  });
}
