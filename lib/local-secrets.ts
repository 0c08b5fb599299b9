import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export type TLocalSecrets = { NEXTAUTH_SECRET: string; WEBHOOK_SECRET_KEY: string };

/**
 * Secrets for an install that did not configure them (a laptop, a demo, `next start` run directly):
 * generated once into .data/secrets.json (mode 600) and reused, so sessions and stored webhook
 * secrets survive restarts. Production installs set NEXTAUTH_SECRET and WEBHOOK_SECRET_KEY.
 */
export function localSecrets(dataDir = process.env.EMBEDDED_DATA_DIR ?? ".data"): TLocalSecrets {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as TLocalSecrets;
  const secrets = {
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64url"),
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}
