import { createHmac } from "node:crypto";
import { env, isProduction } from "@/lib/env";

// Without an Inngest server the in-process driver and the serve endpoint share this key, so the
// endpoint can refuse every request that did not come from the driver (or from Inngest).
const LOCAL_FALLBACK_SECRET = "risk-screening-local-development-only";

export function inngestServerConfigured(): boolean {
  return Boolean(env.INNGEST_EVENT_KEY) || inngestDevMode();
}

export function inngestDevMode(): boolean {
  return env.INNGEST_DEV === "1" || env.INNGEST_DEV === "true";
}

/** INNGEST_SIGNING_KEY, else a key derived from NEXTAUTH_SECRET (`signkey-prod-<hex>`). */
export function servingSigningKey(): string | undefined {
  if (env.INNGEST_SIGNING_KEY) return env.INNGEST_SIGNING_KEY;
  const secret = env.NEXTAUTH_SECRET ?? (isProduction ? undefined : LOCAL_FALLBACK_SECRET);
  if (!secret) return undefined;
  return `signkey-prod-${createHmac("sha256", secret).update("risk-screening/inngest-signing-key/v1").digest("hex")}`;
}
