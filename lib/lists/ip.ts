// IPv4 / IPv6 addresses and CIDR ranges as (family, network bits, prefix length), for ip lists.
// An IPv4-mapped IPv6 address (::ffff:192.0.2.1) is its IPv4 address.

export type TIpRange = { family: 4 | 6; network: bigint; prefix: number };

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const parts = half.split(":");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i === parts.length - 1 && part.includes(".")) {
        const v4 = parseIpv4(part);
        if (v4 === null) return null;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) out.push(parseInt(part, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  let value = 0n;
  for (const g of [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail])
    value = (value << 16n) | BigInt(g);
  return value;
}

/** An address (no prefix) or null when it is not a valid IPv4 or IPv6 address. */
export function parseIp(text: string): { family: 4 | 6; value: bigint } | null {
  const trimmed = text.trim();
  const v4 = parseIpv4(trimmed);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = parseIpv6(trimmed);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

export function bits(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

export function maskTo(value: bigint, family: 4 | 6, prefix: number): bigint {
  const width = BigInt(bits(family));
  const hostBits = width - BigInt(prefix);
  return (value >> hostBits) << hostBits;
}

/** `203.0.113.7`, `198.51.100.0/24`, `2001:db8::/32`; a range with host bits set is refused. */
export function parseIpRange(text: string): TIpRange | { error: string } {
  const [address, prefixText, extra] = text.trim().split("/");
  if (extra !== undefined) return { error: `'${text}' is not an IP address or CIDR range` };
  const ip = parseIp(address ?? "");
  if (!ip) return { error: `'${text}' is not an IP address or CIDR range` };
  const mapped = (address ?? "").includes(":") && ip.family === 4;
  if (prefixText === undefined) return { family: ip.family, network: ip.value, prefix: bits(ip.family) };
  if (!/^\d{1,3}$/.test(prefixText)) return { error: `'${text}': the prefix length must be a number` };
  let prefix = Number(prefixText);
  if (mapped) prefix -= 96;
  if (prefix < 0 || prefix > bits(ip.family))
    return { error: `'${text}': the prefix length must be 0–${bits(ip.family)}` };
  const network = maskTo(ip.value, ip.family, prefix);
  if (network !== ip.value) {
    const canonical = formatIpRange({ family: ip.family, network, prefix });
    return { error: `'${text}' has host bits set; did you mean ${canonical}?` };
  }
  return { family: ip.family, network, prefix };
}

function formatIpv6(value: bigint): string {
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  // RFC 5952: the longest run (of two or more) of zero groups becomes "::"
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/** Canonical text: a single address without its prefix, a range as network/prefix. */
export function formatIpRange(range: TIpRange): string {
  const address =
    range.family === 4
      ? [24n, 16n, 8n, 0n].map((s) => String((range.network >> s) & 0xffn)).join(".")
      : formatIpv6(range.network);
  return range.prefix === bits(range.family) ? address : `${address}/${range.prefix}`;
}
