import { describe, expect, it } from "vitest";
import {
  identifiersFromPaymentMethods,
  identifiersOfUser,
  normalizeIdentifier,
} from "@/lib/users/index-identifiers";

describe("identifiersFromPaymentMethods", () => {
  it("reads every attribute of docs/decisions.md §5 from transaction-shaped objects", () => {
    expect(
      identifiersFromPaymentMethods({
        bank: { accountNumber: "123 456", ibanFull: "GB82 WEST 1234 5698 7654 32" },
        card: { cardFingerprint: "cfp" },
        crypto: { address: "bc1q" },
        wallet: { taxNumberId: "TAX", phone: "+55 11 99999-0000" },
        cash: { id: "ignored" },
      }),
    ).toEqual([
      { kind: "bankAccountNumber", value: "123 456" },
      { kind: "bankAccountNumber", value: "GB82 WEST 1234 5698 7654 32" },
      { kind: "cardFingerprint", value: "cfp" },
      { kind: "cryptoAddress", value: "bc1q" },
      { kind: "walletTaxNumberId", value: "TAX" },
      { kind: "walletPhone", value: "+55 11 99999-0000" },
    ]);
  });

  it("reads card.fingerprint of instruments and ignores empty or malformed values", () => {
    expect(identifiersFromPaymentMethods({ card: { fingerprint: "ifp" } })).toEqual([
      { kind: "cardFingerprint", value: "ifp" },
    ]);
    expect(identifiersFromPaymentMethods({ card: { fingerprint: "  " }, bank: "x", wallet: null })).toEqual(
      [],
    );
    expect(identifiersFromPaymentMethods(null)).toEqual([]);
  });
});

describe("normalizeIdentifier", () => {
  it("compares emails case-insensitively and phones and accounts without separators", () => {
    expect(normalizeIdentifier("email", " A@B.com ")).toBe("a@b.com");
    expect(normalizeIdentifier("phone", "+1 (555) 010-9999")).toBe("+15550109999");
    expect(normalizeIdentifier("walletPhone", "+55 11 99999-0000")).toBe("+5511999990000");
    expect(normalizeIdentifier("bankAccountNumber", "gb82 west 1234")).toBe("GB82WEST1234");
    expect(normalizeIdentifier("deviceFingerprint", " FP-a ")).toBe("FP-a");
  });
});

describe("identifiersOfUser", () => {
  it("takes phone.phone and email.email", () => {
    expect(identifiersOfUser({ phone: { phone: "+1" }, email: { email: "x@y" } })).toEqual([
      { kind: "phone", value: "+1" },
      { kind: "email", value: "x@y" },
    ]);
    expect(identifiersOfUser({})).toEqual([]);
  });
});
