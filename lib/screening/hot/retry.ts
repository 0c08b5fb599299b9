// Retries of a screening whose write statement was aborted as a whole (nothing written), from its read.

/**
 * The write can start again from the read: the row changed since the read (a staleness guard's
 * division by zero), a deadlock with a concurrent writer, a serialization failure.
 */
export function isAbortedWrite(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "22012" || code === "40P01" || code === "40001";
}

/** Runs `work` again (at most `attempts` times in all) while its write is aborted. */
export async function retryAborted<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt < attempts && isAbortedWrite(err)) continue;
      throw err;
    }
  }
}
