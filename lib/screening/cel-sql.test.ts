import { describe, expect, it } from "vitest";
import { compileWhere } from "@/lib/rules/cel";
import { sqlParams, translateWhere } from "@/lib/screening/cel-sql";

function translate(where: string, over: "transaction" | "event" = "transaction") {
  const params = sqlParams(["client"]);
  const sql = translateWhere(compileWhere(over, where).ast, over, "t", params);
  return { sql, values: params.values };
}

describe("translateWhere", () => {
  it("maps indexed columns and JSON paths, with every value as a parameter", () => {
    const { sql, values } = translate(
      "transaction.status == 'DECLINED' && transaction.amount > 1000 || transaction.card.binCountry != 'DE'",
    );
    expect(sql).toBe(
      `(((t."status" = $2::text) AND (t."amount" > $3::numeric)) OR ((t."data" #> $4::text[]) <> $5::jsonb))`,
    );
    expect(values).toEqual(["client", "DECLINED", "1000", ["card", "binCountry"], '"DE"']);
  });

  it("never splices a literal into the SQL text", () => {
    const { sql, values } = translate('transaction.direction == "x\'; DROP TABLE transactions; --"');
    expect(sql).not.toContain("DROP");
    expect(values).toContain(JSON.stringify("x'; DROP TABLE transactions; --"));
  });

  it("guards ordering comparisons on JSON values by type, as CEL errors become NULL", () => {
    expect(translate("transaction.balance.amount >= 5").sql).toBe(
      `(CASE WHEN jsonb_typeof((t."data" #> $3::text[])) = 'number' THEN ((t."data" #> $3::text[]))::numeric >= $2::numeric END)`,
    );
    expect(translate("'b' < transaction.crypto.network").sql).toContain(`COLLATE "C" > $`);
    expect(translate("transaction.userId > 5").sql).toBe("(NULL::boolean)");
  });

  it("supports in, not, has and bool paths", () => {
    expect(translate("transaction.userId in ['a', 'b']")).toEqual({
      sql: `(t."userId" = ANY($2::text[]))`,
      values: ["client", ["a", "b"]],
    });
    expect(translate("transaction.direction in ['payout', 1]").sql).toBe(
      `((t."data" #> $2::text[]) = ANY($3::jsonb[]))`,
    );
    expect(translate("!has(transaction.merchantId)").sql).toBe(`(NOT (t."merchantId" IS NOT NULL))`);
    expect(translate("has(transaction.card.bin)").sql).toContain("CASE WHEN");
    expect(translate("event.type == 'login_failed'", "event").sql).toBe(`(t."type" = $2::text)`);
    expect(translate("transaction.card.isDigitalWallet").sql).toContain("jsonb_typeof");
  });

  it("answers null outside the subset and leaves the parameters untouched", () => {
    for (const where of [
      "transaction.direction.startsWith('pay')",
      "size(transaction.id) > 2",
      "transaction.amount + 1 > 2",
      "transaction.amount > transaction.fee",
      "transaction.direction == 'payout' ? true : false",
    ]) {
      expect(translate(where), where).toEqual({ sql: null, values: ["client"] });
    }
  });
});
