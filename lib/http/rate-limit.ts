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
