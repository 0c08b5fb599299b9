import { createHmac } from "node:crypto";

/** JSON with object keys sorted recursively (RFC 8785 for JSON data), which the Inngest SDK signs. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const record = value as Record<string, unknown>;
  const fields = Object.keys(record)
    .sort()
    .filter((k) => record[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`);
  return `{${fields.join(",")}}`;
}

/**
 * `X-Inngest-Signature` of a request from the Inngest server: `t=<unix s>&s=<hex HMAC-SHA256 of
 * canonical body + t>`, keyed with the signing key text after its `signkey-<env>-` prefix.
 */
export function inngestSignature(
  canonicalBody: string,
  signingKey: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  const key = signingKey.replace(/^signkey-[\w]+-/, "");
  const s = createHmac("sha256", key)
    .update(canonicalBody + String(nowSeconds))
    .digest("hex");
  return `t=${nowSeconds}&s=${s}`;
}
