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

/** Takes up to `want` tokens at once (at least one, else the refusal): a lease for a worker. */
export function takeTokens(
  key: string,
  perSecond: number,
  want: number,
  now = Date.now(),
): { ok: true; granted: number } | { ok: false; retryAfterSeconds: number } {
  const first = takeToken(key, perSecond, now);
  if (!first.ok) return first;
  const bucket = buckets.get(key)!;
  const more = Math.max(0, Math.min(want - 1, Math.floor(bucket.tokens)));
  bucket.tokens -= more;
  return { ok: true, granted: 1 + more };
}

// Several server processes (npm start, WEB_CONCURRENCY) share one bucket per key: the primary process
// holds the buckets and each worker asks it over the cluster IPC channel (scripts/launch.ts). A
// request takes a small lease (1% of a second's tokens, 1 to 50, for LEASE_MS), so a key at a high
// rate costs one round trip to the primary per lease instead of per request. Leased tokens are taken
// from the shared bucket, so the processes together never exceed the limit; a lease not used up
// in time is dropped (at worst a key gets slightly fewer requests than its limit, never more).
const LEASE_MS = 250;
const leases = new Map<string, { tokens: number; until: number }>();
const pending = new Map<number, (result: TTake) => void>();
let nextRequest = 0;
let listening = false;

type TRateMessage = {
  type?: string;
  id?: number;
  key?: string;
  ok?: boolean;
  granted?: number;
  retryAfterSeconds?: number;
};

function sharedBuckets(): boolean {
  return process.env.RSS_RATE_LIMIT_IPC === "1" && typeof process.send === "function" && !!process.connected;
}

export function leaseSize(perSecond: number): number {
  return Math.max(1, Math.min(50, Math.floor(perSecond / 100)));
}

/** takeToken across every server process of this machine when they run as a cluster. */
export function takeTokenShared(key: string, perSecond: number): Promise<TTake> {
  if (!sharedBuckets()) return Promise.resolve(takeToken(key, perSecond));
  const now = Date.now();
  const lease = leases.get(key);
  if (lease && lease.tokens >= 1 && now < lease.until) {
    lease.tokens -= 1;
    return Promise.resolve({ ok: true });
  }
  if (!listening) {
    listening = true;
    process.on("message", (message: TRateMessage) => {
      if (message?.type !== "rate-limit/result" || message.id === undefined) return;
      const done = pending.get(message.id);
      pending.delete(message.id);
      if (!message.ok) return done?.({ ok: false, retryAfterSeconds: message.retryAfterSeconds ?? 1 });
      // one token for this request, the rest of the lease for the next ones
      const extra = Math.max(0, (message.granted ?? 1) - 1);
      if (extra > 0 && message.key !== undefined) {
        const current = leases.get(message.key);
        const live = current && Date.now() < current.until ? current.tokens : 0;
        leases.set(message.key, { tokens: live + extra, until: Date.now() + LEASE_MS });
      }
      done?.({ ok: true });
    });
  }
  const id = ++nextRequest;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    try {
      process.send!({ type: "rate-limit/take", id, key, perSecond, want: leaseSize(perSecond) });
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
  const m = message as { type?: string; id?: number; key?: string; perSecond?: number; want?: number } | null;
  if (m?.type !== "rate-limit/take" || typeof m.key !== "string" || typeof m.perSecond !== "number")
    return false;
  const want =
    typeof m.want === "number" && Number.isInteger(m.want) && m.want > 0 ? Math.min(m.want, 50) : 1;
  const result = takeTokens(m.key, m.perSecond, want);
  reply({ type: "rate-limit/result", id: m.id, key: m.key, ...result });
  return true;
}
