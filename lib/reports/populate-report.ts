import type { TMerchant } from "@/lib/merchants/schemas";
import type { TContent, TContentNode } from "@/lib/reports/content";
import type { TReportProfile, TReportType } from "@/lib/reports/schemas";
import type { TTransaction } from "@/lib/transactions/schemas";
import type { TUser } from "@/lib/users/schemas";

// Builds the goAML content of a report from the client's reporting profile, the request (or template)
// and the referenced user, merchant and transactions. Anything that cannot be derived is null: the
// reviewer supplies it in the dashboard (see incompletePaths).

type TObj = { [key: string]: TContentNode | undefined };
type TPartialUser = Partial<TUser>;
type TRecipient = NonNullable<TTransaction["recipient"]>;

export type TPopulateInput = {
  profile: TReportProfile;
  report: {
    id: string;
    reportType: TReportType;
    reportNumber?: string | null;
    reason?: string | null;
    action?: string | null;
    indicators: string[];
    reportDate: Date;
  };
  /** The report's subject user (stored record body), if any. */
  user: TPartialUser | null;
  /** Stored bodies of every user the transactions refer to, by id. */
  users: Map<string, TPartialUser>;
  /** The report's counterparty merchant, if any. */
  merchant: TMerchant | null;
  merchants: Map<string, TMerchant>;
  transactions: TTransaction[];
};

const GOAML_REPORT_CODES: Partial<Record<TReportType, string>> = { STR: "STR", SAR: "SAR", CTR: "CTR" };

/** goAML sql_date: an xs:dateTime without zone. */
export function goamlDate(value: Date | number): string {
  return new Date(value).toISOString().slice(0, 19);
}

function birthdate(dob: string | undefined): string | null {
  return dob ? `${dob}T00:00:00` : null;
}

// Two-digit country calling codes; 1 and 7 are one digit, every other code has three (E.164 codes are prefix-free).
const TWO_DIGIT_CODES = new Set(
  "20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98".split(
    " ",
  ),
);

export function splitE164(phone: string): { prefix: string; number: string } | null {
  const digits = phone.replace(/[^\d+]/g, "");
  if (!digits.startsWith("+") || digits.length < 5) return null;
  const rest = digits.slice(1);
  const length = rest[0] === "1" || rest[0] === "7" ? 1 : TWO_DIGIT_CODES.has(rest.slice(0, 2)) ? 2 : 3;
  return { prefix: rest.slice(0, length), number: rest.slice(length) };
}

export function phoneNode(profile: TReportProfile, phone: string | undefined): TObj {
  const split = phone ? splitE164(phone) : null;
  return {
    tph_contact_type: profile.codes?.contactType ?? null,
    tph_communication_type: profile.codes?.communicationType ?? "M",
    tph_country_prefix: split?.prefix ?? null,
    tph_number: split?.number ?? (phone ? phone.replace(/\D/g, "") || null : null),
  };
}

export function addressNode(
  profile: TReportProfile,
  a: { street?: string; city?: string; postalCode?: string; country?: string; regionCode?: string },
): TObj {
  return {
    address_type: profile.codes?.contactType ?? null,
    address: a.street ?? null,
    city: a.city ?? null,
    zip: a.postalCode,
    country_code: a.country ?? null,
    state: a.regionCode,
  };
}

function findDocument(user: TPartialUser, pattern: RegExp) {
  return user.documents?.find((d) => d.type && pattern.test(d.type) && d.number);
}

/** The reporting institution's own customer: goAML requires identity, nationality, residence, phone, occupation. */
function personMyClient(profile: TReportProfile, user: TPartialUser): TObj {
  const passport = findDocument(user, /passport/i);
  const nationalId = findDocument(user, /national|identity|id.?card|^id$|ssn/i);
  const address = user.address;
  return {
    first_name: user.firstName ?? null,
    last_name: user.lastName ?? null,
    birthdate: birthdate(user.dateOfBirth),
    ssn: nationalId?.number ?? null,
    passport_number: passport?.number,
    passport_country: passport?.number ? passport.country : undefined,
    nationality1: passport?.country ?? nationalId?.country ?? null,
    residence: address?.country ?? null,
    phones: [phoneNode(profile, user.phone?.phone)],
    addresses: address?.street && address.city ? [addressNode(profile, address)] : undefined,
    email: user.email?.email,
    occupation: null,
    tax_number: user.taxNumberId,
    source_of_wealth: user.kycDetail?.sourceOfIncome,
  };
}

/** Someone who is not the institution's customer: goAML needs only the names. */
function person(profile: TReportProfile, who: Partial<TUser> & { fullName?: string }): TObj {
  const [first, ...rest] = (who.fullName ?? "").trim().split(/\s+/);
  return {
    first_name: who.firstName ?? (first || null),
    last_name: who.lastName ?? (rest.join(" ") || null),
    birthdate: who.dateOfBirth ? birthdate(who.dateOfBirth) : undefined,
    residence: who.address?.country,
    phones: who.phone?.phone ? [phoneNode(profile, who.phone.phone)] : undefined,
    email: who.email?.email,
  };
}

function entity(profile: TReportProfile, merchant: TMerchant): TObj {
  return {
    name: merchant.name,
    commercial_name: merchant.tradingName,
    incorporation_number: merchant.registrationNumber,
    business: merchant.businessType ?? merchant.businessSegment,
    phones: merchant.phone?.phone ? [phoneNode(profile, merchant.phone.phone)] : undefined,
    email: merchant.email?.email,
    incorporation_country_code: merchant.country,
  };
}

type TMethodHolder = Pick<TTransaction, "bank" | "card" | "wallet" | "crypto" | "paymentMethod" | "provider">;

/** An account (goAML t_account) from a payment method object, when the method has one. */
function account(
  holder: TMethodHolder,
  currency: string,
  owner: TObj | null,
): { node: TObj; country?: string } | null {
  const method =
    holder.paymentMethod ??
    (holder.bank
      ? "bank"
      : holder.wallet
        ? "wallet"
        : holder.card
          ? "card"
          : holder.crypto
            ? "crypto"
            : undefined);
  const signatory = owner ? { signatory: [{ is_primary: 1, t_person: owner }] } : {};
  if (method === "bank" && holder.bank) {
    const b = holder.bank;
    return {
      node: {
        institution_name: b.bankName ?? null,
        institution_code: b.routingNumber ?? b.sortCode ?? b.bankBranchCode ?? null,
        branch: b.bankBranch,
        account: b.accountNumber ?? b.ibanFull ?? null,
        currency_code: b.currency ?? currency,
        account_name: b.accountHolderName,
        iban: b.ibanFull,
        ...signatory,
      },
      country: (b.billingAddress as { country?: string } | undefined)?.country,
    };
  }
  if (method === "card" && holder.card) {
    const c = holder.card;
    const masked = c.bin && c.last4 ? `${c.bin}******${c.last4}` : (c.last4 ?? c.cardFingerprint);
    return {
      node: {
        institution_name: c.brand ?? holder.provider ?? null,
        institution_code: c.bin ?? null,
        non_bank_institution: false,
        account: masked ?? null,
        currency_code: currency,
        ...signatory,
      },
      country: c.binCountry,
    };
  }
  if (method === "wallet" && holder.wallet) {
    const w = holder.wallet;
    return {
      node: {
        institution_name: w.provider ?? w.phoneProvider ?? w.tokenBrand ?? holder.provider ?? null,
        institution_code: null,
        non_bank_institution: true,
        account: w.id ?? w.accountId ?? w.phone ?? null,
        currency_code: w.currency ?? currency,
        ...signatory,
      },
      country: w.country ?? w.phoneCountry,
    };
  }
  if (method === "crypto" && holder.crypto) {
    const k = holder.crypto;
    return {
      node: {
        institution_name: k.network ?? holder.provider ?? null,
        institution_code: null,
        non_bank_institution: true,
        account: k.address ?? null,
        currency_code: k.currency ?? currency,
        ...signatory,
      },
    };
  }
  return null;
}

type TParty = { kind: "person" | "entity" | "account"; node: TObj; country: string | null };

function counterparty(
  profile: TReportProfile,
  tx: TTransaction,
  merchant: TMerchant | null,
  client: TPartialUser,
): TParty {
  const recipient: TRecipient | undefined = tx.recipient ?? tx.recipients?.[0];
  if (recipient) {
    const owner = person(profile, recipient);
    const acc = account(recipient, recipient.currencyCode ?? tx.currencyCode, owner);
    if (acc)
      return { kind: "account", node: acc.node, country: acc.country ?? recipient.address?.country ?? null };
    return { kind: "person", node: owner, country: recipient.address?.country ?? null };
  }
  if (merchant) return { kind: "entity", node: entity(profile, merchant), country: merchant.country ?? null };
  // No other party named: the external instrument the money moved through (owned by the client).
  const acc = account(tx, tx.currencyCode, person(profile, client));
  if (acc)
    return { kind: "account", node: acc.node, country: acc.country ?? client.address?.country ?? null };
  return { kind: "entity", node: { name: null }, country: null };
}

function transactionNode(input: TPopulateInput, tx: TTransaction): TObj {
  const { profile } = input;
  const userId = tx.userId ?? tx.user?.id;
  const client: TPartialUser = tx.user ?? (userId ? input.users.get(userId) : undefined) ?? { id: userId };
  const merchantId = tx.merchantId ?? tx.merchant?.id;
  const merchant =
    tx.merchant ?? (merchantId ? input.merchants.get(merchantId) : undefined) ?? input.merchant;
  const party = counterparty(profile, tx, merchant ?? null, client);
  const fundsCode = profile.codes?.fundsCode ?? null;
  const transmode =
    profile.codes?.transmode?.[tx.paymentMethod ?? "default"] ?? profile.codes?.transmode?.default ?? null;
  const local = profile.currencyCodeLocal;
  const foreign = local && tx.currencyCode !== local;
  const foreignCurrency = foreign
    ? {
        foreign_currency_code: tx.currencyCode,
        foreign_amount: String(tx.amount),
        foreign_exchange_rate: null,
      }
    : undefined;

  const myClient = {
    person: personMyClient(profile, client),
    country: client.address?.country ?? client.phone?.country ?? null,
  };
  const description = [
    tx.actionType,
    tx.direction,
    tx.paymentMethod && `via ${tx.paymentMethod}`,
    tx.provider && `(${tx.provider})`,
  ]
    .filter(Boolean)
    .join(" ");
  const node: TObj = {
    transactionnumber: tx.id,
    internal_ref_number: tx.externalId,
    // Where it was conducted: the terminal, else the branch the institution reports from (the officer may correct it).
    transaction_location: tx.terminalId ?? profile.branch ?? null,
    transaction_description: description || "Transaction",
    date_transaction: goamlDate(tx.timestamp),
    transmode_code: transmode,
    amount_local: foreign ? null : String(tx.amount),
  };
  if (tx.direction === "payin") {
    node.t_from = {
      from_funds_code: fundsCode,
      from_foreign_currency: foreignCurrency,
      [`from_${party.kind}`]: party.node,
      from_country: party.country,
    };
    node.t_to_my_client = {
      to_funds_code: fundsCode,
      to_person: myClient.person,
      to_country: myClient.country,
    };
  } else {
    node.t_from_my_client = {
      from_funds_code: fundsCode,
      from_foreign_currency: foreignCurrency,
      from_person: myClient.person,
      from_country: myClient.country,
    };
    node.t_to = {
      to_funds_code: fundsCode,
      [`to_${party.kind}`]: party.node,
      to_country: party.country,
    };
  }
  return node;
}

export function populateReport(input: TPopulateInput): TContent {
  const { profile, report } = input;
  const rp = profile.reportingPerson ?? {};
  const loc = profile.location ?? {};
  const content: TContent = {
    rentity_id: profile.entityId ?? null,
    rentity_branch: profile.branch ?? null,
    submission_code: profile.codes?.submissionCode ?? "E",
    report_code:
      profile.codes?.reportCode?.[report.reportType] ?? GOAML_REPORT_CODES[report.reportType] ?? null,
    entity_reference: report.reportNumber ?? report.id,
    submission_date: goamlDate(report.reportDate),
    currency_code_local: profile.currencyCodeLocal ?? null,
    reporting_person: {
      title: rp.title,
      first_name: rp.firstName ?? null,
      last_name: rp.lastName ?? null,
      phones: rp.phone ? [phoneNode(profile, rp.phone)] : undefined,
      email: rp.email,
      occupation: rp.occupation,
    },
    location: {
      address_type: loc.addressType ?? profile.codes?.contactType ?? null,
      address: loc.address ?? null,
      city: loc.city ?? null,
      zip: loc.zip,
      country_code: loc.countryCode ?? null,
      state: loc.state,
    },
    reason: report.reason ?? undefined,
    action: report.action ?? undefined,
  };
  if (input.transactions.length > 0) {
    content.transactions = input.transactions.map((tx) => transactionNode(input, tx));
  } else {
    // No transaction: goAML's activity form, with the subject as the reported party.
    const user = input.user ?? {};
    content.activity = {
      report_parties: [
        {
          person_my_client: personMyClient(profile, user),
          country: user.address?.country,
          reason: report.reason ?? undefined,
        },
      ],
    };
  }
  content.report_indicators = [...report.indicators];
  return content;
}
