import { describe, expect, it } from "vitest";
import { entryKey, lookupKey } from "@/lib/lists/entry-key";
import { formatIpRange, parseIpRange } from "@/lib/lists/ip";
import { ListIndex, type TLoadedEntry } from "@/lib/lists/list-index";

const keyOf = (kind: Parameters<typeof entryKey>[0], value: string) => {
  const k = entryKey(kind, value);
  if ("error" in k) throw new Error(k.error);
  return k.key;
};

describe("ip ranges", () => {
  it("canonicalises addresses and ranges", () => {
    const canon = (t: string) => {
      const r = parseIpRange(t);
      return "error" in r ? r.error : formatIpRange(r);
    };
    expect(canon("10.0.0.0/8")).toBe("10.0.0.0/8");
    expect(canon("192.0.2.1/32")).toBe("192.0.2.1");
    expect(canon("2001:0DB8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1");
    expect(canon("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1");
    expect(canon("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(canon("::ffff:192.0.2.0/120")).toBe("192.0.2.0/24");
    expect(canon("::/0")).toBe("::/0");
    expect(canon("10.0.0.1/8")).toMatch(/host bits set; did you mean 10.0.0.0\/8/);
    expect(canon("300.1.1.1")).toMatch(/not an IP address/);
    expect(canon("1::2::3")).toMatch(/not an IP address/);
    expect(canon("10.0.0.0/33")).toMatch(/prefix length/);
  });
});

describe("ListIndex", () => {
  const NOW = 1_800_000_000_000;
  const build = (kind: Parameters<typeof entryKey>[0], entries: Array<[string, number | null]>) =>
    new ListIndex(
      kind,
      entries.map(([v, exp]): TLoadedEntry => [keyOf(kind, v), exp, v]),
    );

  it("matches emails and strings case-insensitively after trimming", () => {
    const list = build("email", [[" Mule@Example.com", null]]);
    expect(list.match("mule@example.COM ", NOW)).toBe(" Mule@Example.com");
    expect(list.match("mule@example.org", NOW)).toBeNull();
    expect(lookupKey("string", "  AbC ")).toBe("abc");
  });

  it("never matches an expired entry", () => {
    const list = build("country", [
      ["IR", NOW - 1],
      ["KP", NOW + 1],
    ]);
    expect(list.match("ir", NOW)).toBeNull();
    expect(list.match("kp", NOW)).toBe("KP");
  });

  it("matches the most specific live range, IPv4 and IPv6, and exact addresses", () => {
    const list = build("ip", [
      ["10.0.0.0/8", null],
      ["10.1.0.0/16", NOW - 1],
      ["198.51.100.7", null],
      ["2001:db8::/32", null],
      ["::/0", NOW - 1],
    ]);
    expect(list.match("10.1.2.3", NOW)).toBe("10.0.0.0/8");
    expect(list.match("198.51.100.7", NOW)).toBe("198.51.100.7");
    expect(list.match("198.51.100.6", NOW)).toBeNull();
    expect(list.match("2001:db8:ffff::1", NOW)).toBe("2001:db8::/32");
    expect(list.match("2001:db9::1", NOW)).toBeNull();
    expect(list.match("garbage", NOW)).toBeNull();
  });

  it("looks up a 100,000-entry list without scanning it", () => {
    const entries: TLoadedEntry[] = [];
    for (let i = 0; i < 100_000; i++) {
      const ip = `${10 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.0/24`;
      entries.push([keyOf("ip", ip), null, ip]);
    }
    const list = new ListIndex("ip", entries);
    expect(list.match("11.134.159.77", NOW)).toBe("11.134.159.0/24");
    expect(list.match("12.0.0.1", NOW)).toBeNull();
  });
});
