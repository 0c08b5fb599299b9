import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { env } from "@/lib/env";

// AES-256-GCM for secrets the service must use again in clear (webhook signing secrets):
// a hash would not do, and a database dump alone must not reveal them.
const VERSION = "v1";
const IV_BYTES = 12;

function keyFrom(material: string): Buffer {
  // Domain-separated so the same environment secret never serves two purposes with one key.
  return createHmac("sha256", material).update("risk-screening/secret-box/v1").digest();
}

function defaultKey(): Buffer {
  if (!env.WEBHOOK_SECRET_KEY)
    throw new Error("WEBHOOK_SECRET_KEY is not set; it encrypts webhook secrets at rest");
  return keyFrom(env.WEBHOOK_SECRET_KEY);
}

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function sealSecret(plain: string, key: Buffer = defaultKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, ciphertext]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function openSecret(sealed: string, key: Buffer = defaultKey()): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined)
    throw new Error("Unrecognised sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}

export function secretBoxKey(material: string): Buffer {
  return keyFrom(material);
}
