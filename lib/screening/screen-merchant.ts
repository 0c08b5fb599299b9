// POST /v1/merchantRequest: one read (the stored merchant, every aggregate), the rules in memory, one
// write (the merchant's upsert with its history row, the decision, the outcome, merchant.screened).
import type { TClientContext } from "@/lib/clients/client-context";
import type { TMerchant } from "@/lib/merchants/schemas";
import { storedMerchant, type TRiskAssessment } from "@/lib/screening/assessment";
import type { TScreeningRequest } from "@/lib/screening/screening-config";
import { abortUnlessWritten, commitWrite } from "@/lib/screening/sql/guarded-write";
import {
  evaluateParty,
  plannedPartyRead,
  screenParty,
  type TPartyPrefetched,
  type TPartyScreeningOnce,
  type TPartyShape,
} from "@/lib/screening/party-screening";
import {
  mergedMerchant,
  merchantUpsertCtes,
  type TStoredMerchant,
} from "@/lib/screening/sql/merchant-upsert";

/** The read of a merchant screening as it travels with the API key read (POST /v1/merchantRequest). */
export function plannedMerchantRead(guess: TClientContext, body: TMerchant) {
  return plannedPartyRead(guess, merchantShape(body));
}

export async function screenMerchant(
  args: TScreeningRequest<TMerchant, TPartyPrefetched>,
): Promise<TRiskAssessment> {
  return screenParty(screenMerchantOnce, args);
}

function merchantShape(body: TMerchant): TPartyShape<TStoredMerchant> {
  return {
    subject: "merchant",
    subjectId: body.id,
    timestamp: body.timestamp,
    table: `"merchants"`,
    columns: `s."data", s."status", (extract(epoch FROM s."createdAt") * 1000)::float8 AS "createdAt",
      md5(s."data"::text) AS "dataHash"`,
    // the stored record: its `timestamp` is the first one received for the id (Merchant rule 2)
    variablesOf: (stored) => {
      const { data, status, createdAt } = mergedMerchant(body, stored);
      return { merchant: storedMerchant({ data, status, createdAt })! };
    },
    storedFields: ["status", "createdAt", "timestamp"],
  };
}

const screenMerchantOnce: TPartyScreeningOnce<TMerchant> = async (
  pool,
  clientId,
  config,
  body,
  prefetched,
) => {
  // The write: merchant (insert, or update while it holds the body and status read; a correction
  // also appends the replaced body to merchant_versions), decision, outcome, merchant.screened.
  const { stored, now, answer, p, write } = await evaluateParty(
    pool,
    config,
    clientId,
    merchantShape(body),
    prefetched,
  );
  const ctes = merchantUpsertCtes(p, { clientId, merchant: body, stored, now, outcome: write.outcome });
  ctes.push(...write.ctes);
  await commitWrite(pool, p, `WITH ${ctes.join(",\n")}\n${abortUnlessWritten(["m"])}`);
  return answer;
};
