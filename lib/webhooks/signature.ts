import { createHmac } from "node:crypto";

/**
 * The interface's delivery signature: `t=<epoch ms>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">`
 * keyed with the subscription secret. Computed afresh for every attempt so receivers can enforce
 * their 5-minute tolerance on retries too.
 */
export function signatureHeader(secret: string, rawBody: string, timestampMs: number = Date.now()): string {
  const t = String(Math.trunc(timestampMs));
  const v1 = createHmac("sha256", secret).update(`${t}.${rawBody}`, "utf8").digest("hex");
  return `t=${t},v1=${v1}`;
}
