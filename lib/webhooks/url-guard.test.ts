import { describe, expect, it } from "vitest";
import { isPrivateAddress, webhookUrlProblem } from "@/lib/webhooks/url-guard";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "64:ff9b::10.0.0.1",
    // IPv4-compatible forms of loopback and the metadata address, as the URL parser writes them
    "::127.0.0.1",
    "::7f00:1",
    "::a9fe:a9fe",
    "::169.254.169.254",
    "::8.8.8.8", // deprecated form, never a real target
    "::ffff:0:127.0.0.1", // IPv4-translated
    "::ffff:a9fe:a9fe",
    "fec0::1", // site-local
    "feff::1",
    "fe80::1%eth0",
    "fc00::1",
    "ff02::1",
    "100::1", // discard
    "2001::1", // Teredo
    "2001:db8::1",
    "2002:7f00:1::1", // 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::1",
    "64:ff9b:1::1",
    "[::127.0.0.1]",
    "not-an-address",
  ])("%s is private", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "172.32.0.1",
    "93.184.216.34",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "2002:808:808::1",
    "64:ff9b::8.8.8.8",
    "2a00:1450:4001:80b::200e",
  ])("%s is public", (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe("webhookUrlProblem", () => {
  it("accepts public http(s) URLs", () => {
    expect(webhookUrlProblem("https://hooks.example.com/x", false)).toBeNull();
    expect(webhookUrlProblem("http://93.184.216.34:8080/", false)).toBeNull();
  });

  it("rejects other schemes and malformed URLs", () => {
    expect(webhookUrlProblem("ftp://example.com/", true)).toMatch(/http/);
    expect(webhookUrlProblem("not a url", true)).toMatch(/URL/);
    expect(webhookUrlProblem("https://user:pw@example.com/", true)).toMatch(/user name or password/);
  });

  it("refuses loopback and private targets unless allowed", () => {
    for (const url of [
      "http://localhost:3000/",
      "http://127.0.0.1/",
      "http://[::1]/",
      "http://[::127.0.0.1]/",
      "http://[::a9fe:a9fe]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[fec0::1]/",
      "http://[fd12:3456::1]/",
      "http://[fe80::1]/",
      "http://2130706433/", // 127.0.0.1 as one number
      "http://0x7f.1/",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.5/",
      "http://db.internal/",
    ]) {
      expect(webhookUrlProblem(url, false)).toMatch(/private/);
      expect(webhookUrlProblem(url, true)).toBeNull();
    }
  });
});
