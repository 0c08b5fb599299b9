import { blankAsUnset, configurationErrors, ZEnv, type TEnv } from "@/lib/env-schema";
import { localSecrets } from "@/lib/local-secrets";

export { configurationErrors, type TEnv };

export class ConfigurationError extends Error {}

function parseEnv(): TEnv {
  const parsed = ZEnv.safeParse(blankAsUnset(process.env));
  if (!parsed.success) {
    throw new ConfigurationError(`Invalid configuration: ${configurationErrors(process.env).join("; ")}`);
  }
  const env = parsed.data;
  if (!env.NEXTAUTH_SECRET || !env.WEBHOOK_SECRET_KEY) {
    const local = localSecrets();
    env.NEXTAUTH_SECRET ??= local.NEXTAUTH_SECRET;
    env.WEBHOOK_SECRET_KEY ??= local.WEBHOOK_SECRET_KEY;
    // next-auth reads its secret from the environment too.
    process.env.NEXTAUTH_SECRET ??= env.NEXTAUTH_SECRET;
    if (env.NODE_ENV === "production")
      console.warn(
        "NEXTAUTH_SECRET / WEBHOOK_SECRET_KEY not set: using generated secrets from .data/secrets.json",
      );
  }
  // Without a fixed NEXTAUTH_URL, next-auth answers at whichever host the request came to (localhost,
  // 127.0.0.1, a LAN name): the browser only ever sends its own host, so redirects stay on it.
  if (!env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";
  return env;
}

export const env: TEnv = parseEnv();

export const isProduction = env.NODE_ENV === "production";
