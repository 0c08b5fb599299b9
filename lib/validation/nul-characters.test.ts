import { describe, expect, it } from "vitest";
import { nulCharacterIssues } from "@/lib/validation/nul-characters";

describe("nulCharacterIssues", () => {
  it("names each string and field name holding U+0000 by its pointer", () => {
    expect(
      nulCharacterIssues({ a: "ok", b: ["x", "y\u0000"], "c\u0000": 1, d: { "e/f": "\u0000" } }).sort(),
    ).toEqual([
      "/b/1: String must not contain NUL characters",
      "/c\u0000: Field name must not contain NUL characters",
      "/d/e~1f: String must not contain NUL characters",
    ]);
    expect(nulCharacterIssues("a\u0000")).toEqual(["/: String must not contain NUL characters"]);
  });

  it("names strings with an unpaired surrogate, and accepts paired ones (emoji)", () => {
    expect(nulCharacterIssues({ a: "x\uD800", b: ["\uDC00y"], c: "😀", d: "\uD83D\uDE00" }).sort()).toEqual([
      "/a: String must not contain unpaired UTF-16 surrogates",
      "/b/0: String must not contain unpaired UTF-16 surrogates",
    ]);
  });

  it("accepts clean values, and deep ones without exhausting the stack", () => {
    let deep: unknown = "fine";
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(nulCharacterIssues(deep)).toEqual([]);
    expect(nulCharacterIssues({ a: 1, b: null, c: [true, "é😀"] })).toEqual([]);
  });
});
