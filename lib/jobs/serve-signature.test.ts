import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inngestSignature } from "@/lib/jobs/serve-signature";

describe("inngestSignature", () => {
  it("keys the HMAC with the text after the signkey prefix and appends the timestamp", () => {
    const sig = inngestSignature('{"a":1}', "signkey-prod-abc123", 1_700_000_000);
    const expected = createHmac("sha256", "abc123").update('{"a":1}1700000000').digest("hex");
    expect(sig).toBe(`t=1700000000&s=${expected}`);
  });
});
