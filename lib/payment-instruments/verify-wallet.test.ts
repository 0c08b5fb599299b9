import { describe, expect, it } from "vitest";
import { verifyWallet } from "@/lib/payment-instruments/verify-wallet";

describe("verifyWallet", () => {
  const user = { taxNumberId: "123.456.789-09", phone: { phone: "+55 11 91234-5678" } };

  it("verifies when both match, ignoring formatting", () => {
    expect(verifyWallet({ taxNumberId: "12345678909", phone: "+5511912345678" }, user)).toEqual({
      status: "verified",
      checks: { taxNumberId: "match", phone: "match" },
    });
  });

  it("reports a mismatch when any check mismatches", () => {
    expect(verifyWallet({ taxNumberId: "99999999999", phone: "+5511912345678" }, user)).toEqual({
      status: "mismatch",
      checks: { taxNumberId: "mismatch", phone: "match" },
    });
  });

  it("is unverifiable when nothing can be compared", () => {
    expect(verifyWallet({}, user).status).toBe("unverifiable");
    expect(verifyWallet({ taxNumberId: "1", phone: "2" }, null)).toEqual({
      status: "unverifiable",
      checks: { taxNumberId: "missing", phone: "missing" },
    });
  });

  it("verifies on one match when the other side is missing", () => {
    expect(verifyWallet({ phone: "+5511912345678" }, user)).toEqual({
      status: "verified",
      checks: { taxNumberId: "missing", phone: "match" },
    });
  });
});
