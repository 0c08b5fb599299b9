import { describe, expect, it } from "vitest";
import { clientAddress, parseTrustedProxies } from "@/lib/auth/client-address";

const none = parseTrustedProxies(undefined);
const proxies = parseTrustedProxies("10.0.0.1, 192.168.0.0/16, fd00::/8");

describe("clientAddress", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress({ peer: "203.0.113.9", forwardedFor: "1.2.3.4", trusted: none })).toBe(
      "203.0.113.9",
    );
    expect(clientAddress({ peer: "::ffff:203.0.113.9", forwardedFor: null, trusted: none })).toBe(
      "203.0.113.9",
    );
    // a proxy that is not listed is just a client
    expect(clientAddress({ peer: "10.0.0.1", forwardedFor: "1.2.3.4", trusted: none })).toBe("10.0.0.1");
    expect(clientAddress({ peer: null, forwardedFor: "1.2.3.4", trusted: proxies })).toBeNull();
  });

  it("believes X-Forwarded-For only as far as the hops are trusted proxies", () => {
    expect(clientAddress({ peer: "10.0.0.1", forwardedFor: "1.2.3.4", trusted: proxies })).toBe("1.2.3.4");
    // the client's own entry on the left is not believed: the trusted proxy appended the real one
    expect(
      clientAddress({
        peer: "10.0.0.1",
        forwardedFor: "6.6.6.6, 198.51.100.7, 192.168.4.2",
        trusted: proxies,
      }),
    ).toBe("198.51.100.7");
    expect(
      clientAddress({ peer: "::ffff:10.0.0.1", forwardedFor: "[2001:db8::1]:443", trusted: proxies }),
    ).toBe("2001:db8::1");
    expect(clientAddress({ peer: "fd12::5", forwardedFor: "198.51.100.8:5000", trusted: proxies })).toBe(
      "198.51.100.8",
    );
    // garbage in the header: the last address we could trust
    expect(clientAddress({ peer: "10.0.0.1", forwardedFor: "not-an-ip", trusted: proxies })).toBe("10.0.0.1");
    expect(clientAddress({ peer: "10.0.0.1", forwardedFor: "", trusted: proxies })).toBe("10.0.0.1");
  });

  it("refuses a TRUSTED_PROXIES entry that is not an address or range", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/10.0.0.0\/33/);
    expect(() => parseTrustedProxies("proxy.internal")).toThrow(/proxy.internal/);
    expect(() => parseTrustedProxies("::1/129")).toThrow();
    expect(() => parseTrustedProxies("10.0.0.0/8, ::1")).not.toThrow();
  });
});
