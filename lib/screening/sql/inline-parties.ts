import type { TMerchant } from "@/lib/merchants/schemas";
import { storedEntity, storedMerchant } from "@/lib/screening/assessment";
import { asStored, type Params } from "@/lib/screening/sql/statements";
import {
  merchantUpsertCtes,
  mergedMerchant,
  type TStoredMerchant,
} from "@/lib/screening/sql/merchant-upsert";
import { userUpsertCtes, type TStoredUser } from "@/lib/screening/sql/user-upsert";
import { toStoredStatus, type TUser } from "@/lib/users/schemas";

// The inline user and merchant of a transaction or an event (README.md here, "Inline user or
// merchant"), folded into the screening's read and write like party-screening.ts does for its own
// subject: the read returns the stored rows (aliases `u` and `m`, plus the merchant's
// `md5(data::text)`), the rules see in memory what the upserts will store (the same merge as the user
// and merchant screenings), and the upserts are the one user and merchant writers (user-upsert.ts,
// merchant-upsert.ts) as CTEs of the write, guarded: a new party is a plain INSERT (a concurrent
// creation is a unique violation), a stored one is written (or, for an unchanged merchant, locked)
// only while it still holds what was read; otherwise the write aborts (abortUnlessWritten), nothing
// is written and the screening reads again.

/** The columns a screening's read returns about its user and merchant. */
export type TPartyRead = {
  userData: unknown;
  userStatus: string | null;
  userCreatedAt: Date | null;
  merchantData: unknown;
  merchantStatus: string | null;
  merchantCreatedAt: Date | null;
  /** md5 of the stored merchant's data (only read for an inline merchant: `merchantHashColumn`). */
  merchantDataHash?: string | null;
};

export type TInlineParties = { user?: TUser; merchant?: TMerchant };

/** The SELECT column of the read that the guard of an inline merchant needs (`m` = the merchant's row). */
export function merchantHashColumn(inline: TInlineParties): string {
  return inline.merchant ? `, md5(m."data"::text) AS "merchantDataHash"` : "";
}

function storedUserOf(read: TPartyRead): TStoredUser | null {
  return read.userCreatedAt ? { status: read.userStatus!, createdAt: read.userCreatedAt.getTime() } : null;
}

function storedMerchantOf(read: TPartyRead): TStoredMerchant | null {
  return read.merchantCreatedAt
    ? {
        data: read.merchantData,
        status: read.merchantStatus,
        createdAt: read.merchantCreatedAt.getTime(),
        dataHash: read.merchantDataHash!,
      }
    : null;
}

/**
 * `user` and `merchant` as the rules see them: the stored rows, and for an inline party the row its
 * upsert will leave.
 */
export function partyVariables(
  read: TPartyRead,
  inline: TInlineParties,
): { user?: Record<string, unknown>; merchant?: Record<string, unknown> } {
  let user: Record<string, unknown> | undefined;
  if (inline.user) {
    // the status sent, else the stored one, else active; createdAt first seen
    const stored = storedUserOf(read);
    const requested = inline.user.status ? toStoredStatus(inline.user.status) : undefined;
    user = storedEntity({
      data: asStored(inline.user),
      status: requested ?? stored?.status ?? "active",
      createdAt: new Date(stored ? stored.createdAt : inline.user.timestamp),
    });
  } else {
    user = storedEntity(
      read.userCreatedAt
        ? { data: read.userData, status: read.userStatus, createdAt: read.userCreatedAt }
        : null,
    );
  }
  let merchant: Record<string, unknown> | undefined;
  if (inline.merchant) {
    const { data, status, createdAt } = mergedMerchant(inline.merchant, storedMerchantOf(read));
    merchant = storedMerchant({ data, status, createdAt });
  } else {
    merchant = storedMerchant(
      read.merchantCreatedAt
        ? { data: read.merchantData, status: read.merchantStatus, createdAt: read.merchantCreatedAt }
        : null,
    );
  }
  return { user, merchant };
}

/**
 * The upserts of the inline parties as CTEs of the caller's write (names `u`, `sc`, `ud`, `uk`, `dv`,
 * `ui` for the user, `m`, `mv` for the merchant), and `written`, the CTEs that must each return a row
 * (abortUnlessWritten): a party changed since the read aborts the write.
 */
export function inlinePartyCtes(
  p: Params,
  {
    clientId,
    inline,
    source,
    read,
    now,
    withUserDevice = true,
  }: {
    clientId: string;
    inline: TInlineParties;
    source: string;
    read: TPartyRead;
    now: Date;
    /** false: the caller upserts the user's device itself (it is also the transaction's device). */
    withUserDevice?: boolean;
  },
): { ctes: string[]; written: string[] } {
  const ctes: string[] = [];
  const written: string[] = [];
  if (inline.user) {
    ctes.push(
      ...userUpsertCtes(p, {
        clientId,
        body: inline.user,
        source,
        stored: storedUserOf(read),
        now,
        outcome: [],
        withDevice: withUserDevice,
      }),
    );
    written.push("u");
  }
  if (inline.merchant) {
    ctes.push(
      ...merchantUpsertCtes(p, { clientId, merchant: inline.merchant, stored: storedMerchantOf(read), now }),
    );
    written.push("m");
  }
  return { ctes, written };
}
