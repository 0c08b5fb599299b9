import { createHmac } from "node:crypto";

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
