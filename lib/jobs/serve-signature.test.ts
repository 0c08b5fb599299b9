import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, inngestSignature } from "@/lib/jobs/serve-signature";

describe("canonicalJson", () => {
  it("sorts keys recursively and keeps arrays in order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("round-trips: parsing and canonicalising again gives the same text", () => {
    const text = canonicalJson({
      ctx: { attempt: 0, run_id: "r" },
      event: { name: "x", data: { n: 1.5 } },
      version: 2,
    });
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });
});

describe("inngestSignature", () => {
  it("keys the HMAC with the text after the signkey prefix and appends the timestamp", () => {
    const sig = inngestSignature('{"a":1}', "signkey-prod-abc123", 1_700_000_000);
    const expected = createHmac("sha256", "abc123").update('{"a":1}1700000000').digest("hex");
    expect(sig).toBe(`t=1700000000&s=${expected}`);
  });
});
