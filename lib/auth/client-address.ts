// The address a dashboard request came from, for sign-in throttling. `next start` fills X-Forwarded-For
// with the socket's address only when the request has none, so a client that sends its own header would
// choose its address. The socket's address is therefore stamped on every request in a header of our own
// (overwriting any a client sent), and X-Forwarded-For entries count only when every hop after them is a
// proxy the operator listed in TRUSTED_PROXIES.
import { BlockList, isIP } from "node:net";

export const PEER_ADDRESS_HEADER = "x-rss-peer-address";

/** Parses "10.0.0.1, 10.1.0.0/16, ::1" (addresses and CIDRs); throws naming the first bad entry. */
export function parseTrustedProxies(raw: string | undefined): BlockList {
  const list = new BlockList();
  for (const entry of (raw ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address);
    const prefix = bits === undefined ? null : Number(bits);
    const max = family === 6 ? 128 : 32;
    if (!family || (prefix !== null && (!/^\d+$/.test(bits!) || prefix > max)))
      throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (prefix === null) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

function normalize(address: string): string | null {
  let a = address.trim();
  // "[::1]:443", "203.0.113.9:5000" and "::ffff:203.0.113.9" all name one host.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.split(":")[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) a = mapped[1]!;
  return isIP(a) ? a.toLowerCase() : null;
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/**
 * The client address: the socket's peer, or when that peer is a trusted proxy, the nearest
 * X-Forwarded-For entry (right to left) that is not itself a trusted proxy. Null when unknown.
 */
export function clientAddress({
  peer,
  forwardedFor,
  trusted,
}: {
  peer: string | null | undefined;
  forwardedFor: string | null | undefined;
  trusted: BlockList;
}): string | null {
  const direct = peer ? normalize(peer) : null;
  if (!direct) return null;
  let address = direct;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  while (isTrusted(trusted, address)) {
    const next = hops.pop();
    const parsed = next ? normalize(next) : null;
    if (!parsed) break;
    address = parsed;
  }
  return address.slice(0, 100);
}

type TEmit = (this: unknown, event: string, ...args: unknown[]) => boolean;

/**
 * Stamps the socket's address on every request the process's HTTP servers receive, before Next.js
 * sees it. Called once at start-up (instrumentation.ts).
 */
export async function stampPeerAddresses(): Promise<void> {
  const http = await import("node:http");
  const proto = http.Server.prototype as unknown as { emit: TEmit; __peerStamped?: boolean };
  if (proto.__peerStamped) return;
  proto.__peerStamped = true;
  const emit = proto.emit;
  proto.emit = function (this: unknown, event: string, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as import("node:http").IncomingMessage;
      req.headers[PEER_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "";
    }
    return emit.call(this, event, ...args);
  };
}
