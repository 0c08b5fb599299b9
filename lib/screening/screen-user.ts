// POST /v1/user/onboard: one read (the stored user, every aggregate), the rules in memory, one write
// (the user's upsert with its side rows, the decision, the outcome, user.screened).
import type { TClientContext } from "@/lib/clients/client-context";
import { storedEntity, type TRiskAssessment } from "@/lib/screening/assessment";
import type { TScreeningRequest } from "@/lib/screening/screening-config";
import { abortUnlessWritten, commitWrite } from "@/lib/screening/sql/guarded-write";
import { toStoredStatus, type TUser } from "@/lib/users/schemas";
import {
  evaluateParty,
  plannedPartyRead,
  screenParty,
  type TPartyPrefetched,
  type TPartyScreeningOnce,
  type TPartyShape,
} from "@/lib/screening/party-screening";
import { asStored } from "@/lib/screening/sql/statements";
import { userUpsertCtes, type TStoredUser } from "@/lib/screening/sql/user-upsert";

/** The read of a user screening as it travels with the API key read (POST /v1/user/onboard). */
export function plannedUserRead(guess: TClientContext, body: TUser) {
  return plannedPartyRead(guess, userShape(body));
}

export async function screenUser(args: TScreeningRequest<TUser, TPartyPrefetched>): Promise<TRiskAssessment> {
  return screenParty(screenUserOnce, args);
}

function userShape(body: TUser): TPartyShape<TStoredUser> {
  const requested = body.status ? toStoredStatus(body.status) : undefined;
  const data = asStored(body);
  return {
    subject: "user",
    subjectId: body.id,
    timestamp: body.timestamp,
    table: `"users"`,
    columns: `s."status", (extract(epoch FROM s."createdAt") * 1000)::float8 AS "createdAt"`,
    // the request under `user`, with the stored status and first-seen createdAt
    variablesOf: (stored) => {
      const status = requested ?? stored?.status ?? "active";
      const createdAt = new Date(stored ? stored.createdAt : body.timestamp);
      return {
        user: {
          ...storedEntity({ data, status, createdAt }),
          ...body,
          status,
          createdAt: createdAt.getTime(),
        },
      };
    },
    storedFields: ["status", "createdAt"],
  };
}

const screenUserOnce: TPartyScreeningOnce<TUser> = async (pool, clientId, config, body, prefetched) => {
  // The write: user (insert, or update while its status is the one read), status change, phone and
  // email links replaced, device, decision, outcome, user.screened.
  const { stored, now, answer, p, write } = await evaluateParty(
    pool,
    config,
    clientId,
    userShape(body),
    prefetched,
  );
  const ctes = userUpsertCtes(p, { clientId, body, source: "onboard", stored, now, outcome: write.outcome });
  ctes.push(...write.ctes);
  await commitWrite(pool, p, `WITH ${ctes.join(",\n")}\n${abortUnlessWritten(["u"])}`);
  return answer;
};
