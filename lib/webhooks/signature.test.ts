import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signatureHeader } from "@/lib/webhooks/signature";

describe("signatureHeader", () => {
  it("signs `<t>.<raw body>` with HMAC-SHA256, lowercase hex, t in epoch ms", () => {
    const body = '{"event":"alert.created","payload":{},"timestamp":1}';
    const header = signatureHeader("s3cret", body, 1_700_000_000_123);
    const expected = createHmac("sha256", "s3cret").update(`1700000000123.${body}`).digest("hex");
    expect(header).toBe(`t=1700000000123,v1=${expected}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });
});
