// A failed delivery's stored error (Node's "connect ECONNREFUSED 127.0.0.1:9") in words for the dashboard.
// The stored text is unchanged (API, logs); only what a person reads is translated.

const CODES: Record<string, string> = {
  ECONNREFUSED: "Connection refused",
  ECONNRESET: "Connection reset by the receiver",
  EPIPE: "Connection closed by the receiver",
  ETIMEDOUT: "Connection timed out",
  ENOTFOUND: "Host name not found",
  EAI_AGAIN: "Host name lookup failed (temporary)",
  EHOSTUNREACH: "Host unreachable",
  ENETUNREACH: "Network unreachable",
  CERT_HAS_EXPIRED: "The receiver's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "The receiver's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "The receiver's TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "The receiver's TLS certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "The receiver's TLS certificate is for another host name",
};

/** `connect ECONNREFUSED 127.0.0.1:9` → `Connection refused (127.0.0.1:9)`; unknown texts are kept. */
export function deliveryErrorText(raw: string): string {
  const match = /\b([A-Z][A-Z0-9_]{3,})\b:?\s*(.*)$/.exec(raw);
  const words = match?.[1] ? CODES[match[1]] : undefined;
  if (!match || !words) return raw;
  const rest = match[2]?.trim() ?? "";
  // a host, address or host:port after the code names the receiver; other trailing text repeats the code
  return /^[\w.\-[\]:]+$/.test(rest) ? `${words} (${rest})` : words;
}
