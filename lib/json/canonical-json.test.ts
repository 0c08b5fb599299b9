import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/json/canonical-json";

describe("canonicalJson", () => {
  it("sorts keys recursively and keeps arrays in order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("orders keys by code units, integer-like keys included", () => {
    expect(canonicalJson({ b: 1, "10": 2, "9": 3, B: 4, é: 5, _: 6 })).toBe(
      '{"10":2,"9":3,"B":4,"_":6,"b":1,"é":5}',
    );
  });

  it("gives the same text whatever the insertion order", () => {
    expect(canonicalJson({ x: [{ q: 1, p: 2 }], y: "s" })).toBe(
      canonicalJson({ y: "s", x: [{ p: 2, q: 1 }] }),
    );
  });

  it("leaves out undefined properties, and writes undefined as null at the top and in arrays", () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1], c: { d: undefined } })).toBe(
      '{"b":[null,1],"c":{}}',
    );
    expect(canonicalJson(undefined)).toBe("null");
    // eslint-disable-next-line no-sparse-arrays
    expect(canonicalJson([, 1])).toBe("[null,1]");
  });

  it("writes numbers, strings and literals as JSON.stringify does", () => {
    expect(canonicalJson([0, -0, 1.5, 1e21, 2 ** 53, NaN, Infinity, 'a"\n', true, null])).toBe(
      '[0,0,1.5,1e+21,9007199254740992,null,null,"a\\"\\n",true,null]',
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
