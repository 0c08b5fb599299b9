// Group commit for the background work's small statements: calls that arrive while the previous
// statement of the same kind runs are sent together as one statement (a call to an idle batcher
// goes out at once, so nothing waits for a timer). Each caller gets its own answer only once its
// statement completed, so every caller keeps the guarantees of running its statement alone.

type TPending<I, O> = { item: I; resolve: (value: O) => void; reject: (err: unknown) => void };

export type TBatcher<I, O> = (item: I) => Promise<O>;

/**
 * `run` executes one statement for the items and answers one result per item, in order.
 * `key`: items with the same key never share a statement (the later one waits for the next).
 */
export function batcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  { max = 100, key }: { max?: number; key?: (item: I) => string } = {},
): TBatcher<I, O> {
  let queue: TPending<I, O>[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch: TPending<I, O>[] = [];
        const rest: TPending<I, O>[] = [];
        const keys = new Set<string>();
        for (const p of queue) {
          const k = key?.(p.item);
          if (batch.length >= max || (k !== undefined && keys.has(k))) rest.push(p);
          else {
            batch.push(p);
            if (k !== undefined) keys.add(k);
          }
        }
        queue = rest;
        try {
          const results = await run(batch.map((p) => p.item));
          batch.forEach((p, i) => p.resolve(results[i]!));
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      flushing = false;
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!flushing) void flush();
    });
}
