import { isIP } from "node:net";
import { env, isProduction } from "@/lib/env";

// docs/decisions.md §7: loopback and private-network targets are refused in production unless
// WEBHOOK_ALLOW_PRIVATE_TARGETS=true. Checked when subscribing and again on every connection,
// against the address actually connected to (DNS may change between the two).

export function privateTargetsAllowed(): boolean {
  return !isProduction || env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
}

function ipv4Parts(ip: string): number[] | null {
  const parts = ip.split(".").map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts : null;
}

function isPrivateIPv4(ip: string): boolean {
  const p = ipv4Parts(ip);
  if (!p) return true;
  const [a = 0, b = 0] = p;
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && p[2] === 0) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

function expandIPv6(ip: string): number[] | null {
  let text = ip.toLowerCase().split("%")[0] ?? "";
  const lastColon = text.lastIndexOf(":");
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes(".")) {
    const v4 = ipv4Parts(dotted);
    if (!v4) return null;
    const hi = ((v4[0]! << 8) | v4[1]!).toString(16);
    const lo = ((v4[2]! << 8) | v4[3]!).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hi}:${lo}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail].map((g) =>
    /^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN,
  );
  return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : null;
}

function embeddedIPv4(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * Public only inside global unicast (2000::/3) outside its special ranges, or when an embedded IPv4
 * address (mapped, translated, NAT64, 6to4) is public. Everything else (loopback, unspecified,
 * IPv4-compatible such as [::127.0.0.1] or [::a9fe:a9fe], ULA, link-local, site-local fec0::/10,
 * multicast, discard, Teredo, documentation) is refused.
 */
function isPrivateIPv6(ip: string): boolean {
  const g = expandIPv6(ip);
  if (!g) return true;
  const [g0 = 0, g1 = 0, g2 = 0, , g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g5 === 0xffff) return isPrivateIPv4(embeddedIPv4(g6, g7)); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(4) && g4 === 0xffff && g5 === 0) return isPrivateIPv4(embeddedIPv4(g6, g7)); // ::ffff:0:a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return isPrivateIPv4(embeddedIPv4(g6, g7)); // NAT64 64:ff9b::/96
  if (g0 === 0x2002) return isPrivateIPv4(embeddedIPv4(g1, g2)); // 6to4
  if ((g0 & 0xe000) !== 0x2000) return true; // outside global unicast: ::/96, ::1, fc00::/7, fe80::/10, fec0::/10, ff00::/8, 100::/64, ...
  return (
    (g0 === 0x2001 && g1 < 0x0200) || // IETF protocol assignments: Teredo, ORCHID, benchmarking
    (g0 === 0x2001 && g1 === 0x0db8) || // documentation
    (g0 === 0x3fff && g1 < 0x1000) // documentation (3fff::/20)
  );
}

/** True for loopback, private, link-local, multicast and otherwise non-public addresses. */
export function isPrivateAddress(ip: string): boolean {
  const version = isIP(ip.replace(/^\[|\]$/g, "").split("%")[0] ?? "");
  if (version === 4) return isPrivateIPv4(ip);
  if (version === 6) return isPrivateIPv6(ip.replace(/^\[|\]$/g, ""));
  return true;
}

/** Host names that can only mean this machine or its local network. */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host.endsWith(".internal") ||
    !host.includes(".")
  );
}

/** A reason the URL may not be used as a webhook target, or null when it may. */
export function webhookUrlProblem(raw: string, allowPrivate = privateTargetsAllowed()): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute http or https URL, such as https://example.com/webhooks";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://";
  if (url.username || url.password) return "must not contain a user name or password";
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) ? isPrivateAddress(host) : isLocalHostname(host)) {
    return "must not point to a loopback or private-network address";
  }
  return null;
}

/**
 * Why production would refuse a URL this process accepts only because it is not production (dev
 * and test allow private targets): shown as a warning in the dashboard. Null when production agrees.
 */
export function productionRefusal(raw: string): string | null {
  if (isProduction || env.WEBHOOK_ALLOW_PRIVATE_TARGETS) return null;
  return webhookUrlProblem(raw, false);
}
