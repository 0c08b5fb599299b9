import { describe, expect, it } from "vitest";
import { openSecret, sealSecret, secretBoxKey } from "@/lib/crypto/secret-box";

const key = secretBoxKey("unit-test-key-material-0123456789");

describe("secret box", () => {
  it("round-trips and never stores the plain text", () => {
    const sealed = sealSecret("whsec_very-secret", key);
    expect(sealed).not.toContain("whsec_very-secret");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(openSecret(sealed, key)).toBe("whsec_very-secret");
  });

  it("uses a fresh IV every time", () => {
    expect(sealSecret("same", key)).not.toBe(sealSecret("same", key));
  });

  it("rejects a tampered ciphertext or another key", () => {
    const sealed = sealSecret("secret", key);
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString("base64url");
    expect(() => openSecret(parts.join("."), key)).toThrow();
    expect(() => openSecret(sealed, secretBoxKey("another-key-material-0123456789"))).toThrow();
  });
});
