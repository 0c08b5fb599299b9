// Token bucket per API key: RATE_LIMIT_PER_SECOND tokens a second, a burst of twice that.
type TBucket = { tokens: number; updatedAt: number };

const buckets = new Map<string, TBucket>();

export function takeToken(
  key: string,
  perSecond: number,
  now = Date.now(),
): { ok: true } | { ok: false; retryAfterSeconds: number } {
  const burst = perSecond * 2;
  const bucket = buckets.get(key) ?? { tokens: burst, updatedAt: now };
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * perSecond);
  bucket.updatedAt = now;
  buckets.set(key, bucket);
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { ok: true };
  }
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
}

export function resetRateLimits(): void {
  buckets.clear();
}

export type TTake = { ok: true } | { ok: false; retryAfterSeconds: number };

// Several server processes (npm start, one per core) share one bucket per key: the primary process
// holds the buckets and each worker asks it over the cluster IPC channel (scripts/launch.ts).
const pending = new Map<number, (result: TTake) => void>();
let nextRequest = 0;
let listening = false;

type TRateMessage = { type?: string; id?: number; ok?: boolean; retryAfterSeconds?: number };

function sharedBuckets(): boolean {
  return process.env.RSS_RATE_LIMIT_IPC === "1" && typeof process.send === "function" && !!process.connected;
}

/** takeToken across every server process of this machine when they run as a cluster. */
export function takeTokenShared(key: string, perSecond: number): Promise<TTake> {
  if (!sharedBuckets()) return Promise.resolve(takeToken(key, perSecond));
  if (!listening) {
    listening = true;
    process.on("message", (message: TRateMessage) => {
      if (message?.type !== "rate-limit/result" || message.id === undefined) return;
      const done = pending.get(message.id);
      pending.delete(message.id);
      done?.(message.ok ? { ok: true } : { ok: false, retryAfterSeconds: message.retryAfterSeconds ?? 1 });
    });
  }
  const id = ++nextRequest;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    try {
      process.send!({ type: "rate-limit/take", id, key, perSecond });
    } catch {
      pending.delete(id);
      resolve(takeToken(key, perSecond));
    }
  });
}

/** The primary's side: answers a worker's rate-limit/take message, or returns false for other messages. */
export function answerRateLimitMessage(
  message: unknown,
  reply: (answer: Record<string, unknown>) => void,
): boolean {
  const m = message as { type?: string; id?: number; key?: string; perSecond?: number } | null;
  if (m?.type !== "rate-limit/take" || typeof m.key !== "string" || typeof m.perSecond !== "number")
    return false;
  const result = takeToken(m.key, m.perSecond);
  reply({ type: "rate-limit/result", id: m.id, ...result });
  return true;
}
