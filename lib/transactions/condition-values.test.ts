import { describe, expect, it } from "vitest";
import { conditionValues } from "@/lib/transactions/condition-values";

describe("conditionValues", () => {
  it("reads the field paths a condition mentions, skipping CEL methods and objects", () => {
    const vars = {
      transaction: { amount: 12000, direction: "payout", card: { cardFingerprint: "fp1" } },
      user: { createdAt: 1000 },
    };
    expect(
      conditionValues(
        "transaction.amount >= 10000 && transaction.?direction.orValue('') == 'payout' && " +
          "transaction.?card.?cardFingerprint.hasValue() && transaction.timestamp - user.createdAt < 5 && has(transaction.card)",
        vars,
      ),
    ).toEqual({
      "transaction.amount": 12000,
      "transaction.direction": "payout",
      "transaction.card.cardFingerprint": "fp1",
      "user.createdAt": 1000,
    });
  });
});
