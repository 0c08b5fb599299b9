// links.* in a screening: which values the live rules need (once per rule set), whose links they
// are (the subject's user) and the identifiers the screened record brings that are not stored yet.
import { compiledRuleVersion } from "@/lib/rules/cel";
import type { TRuleSubject } from "@/lib/rules/schemas";
import type { TLoadedRule } from "@/lib/screening/evaluate-rules";
import type { Tx } from "@/lib/db";
import type { TEvaluatedRule } from "@/lib/screening/evaluate-rules";
import {
  evaluateWithLinks,
  linkRequests,
  mentionsLinks,
  type TLinkRequests,
  type TLinkValues,
} from "@/lib/links/link-signals";
import { readLinkSignals } from "@/lib/links/read-link-signals";
import {
  identifiersFromPaymentMethods,
  identifiersOfUser,
  type TIdentifier,
} from "@/lib/users/index-identifiers";

const plans = new WeakMap<readonly TLoadedRule[], TLinkRequests | null>();

/** What the rules' links.* calls need read; null when no rule calls them (then nothing is read). */
export function linkPlan(rules: readonly TLoadedRule[], subject: TRuleSubject): TLinkRequests | null {
  const cached = plans.get(rules);
  if (cached !== undefined) return cached;
  const asts = [];
  for (const rule of rules) {
    if (!mentionsLinks(rule.condition)) continue;
    try {
      asts.push(
        compiledRuleVersion({
          id: rule.versionId,
          subject,
          condition: rule.condition,
          aggregates: rule.aggregates,
        }).condition.ast,
      );
    } catch {
      // a version that no longer compiles reports that error when evaluated
    }
  }
  const plan = asts.length ? linkRequests(asts) : null;
  plans.set(rules, plan);
  return plan;
}

type TLoose = Record<string, unknown>;

function record(value: unknown): TLoose | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as TLoose) : undefined;
}

function deviceIdentifiers(device: unknown): TIdentifier[] {
  const d = record(device);
  const out: TIdentifier[] = [];
  if (typeof d?.ipAddress === "string") out.push({ kind: "ipAddress", value: d.ipAddress });
  if (typeof d?.fingerprint === "string") out.push({ kind: "deviceFingerprint", value: d.fingerprint });
  return out;
}

function userIdentifiers(user: TLoose | undefined): TIdentifier[] {
  if (!user) return [];
  return [...identifiersOfUser(user as never), ...deviceIdentifiers(user.userDevice)];
}

/**
 * The user whose links a screening reads, the identifiers its record carries for that user, and the
 * record's timestamp (windows run back from it, as aggregate windows do).
 */
export function linkSubject(
  subject: TRuleSubject,
  subjectId: string,
  variables: Record<string, unknown>,
): { userId: string | null; current: TIdentifier[]; timestamp: number } {
  const own = record(variables[subject]) ?? {};
  const timestamp = typeof own.timestamp === "number" ? own.timestamp : Date.now();
  const inlineUser = record(own.user);
  switch (subject) {
    case "transaction": {
      const userId = (own.userId as string | undefined) ?? (inlineUser?.id as string | undefined) ?? null;
      return {
        userId,
        current: [
          ...identifiersFromPaymentMethods(own),
          ...deviceIdentifiers(own.userDevice),
          ...userIdentifiers(inlineUser),
        ],
        timestamp,
      };
    }
    case "user":
      return { userId: subjectId, current: userIdentifiers(own), timestamp };
    case "event": {
      const userId = (own.userId as string | undefined) ?? (inlineUser?.id as string | undefined) ?? null;
      return { userId, current: userIdentifiers(inlineUser), timestamp };
    }
    case "paymentInstrument":
      return {
        userId: typeof own.userId === "string" ? own.userId : null,
        current: identifiersFromPaymentMethods(own),
        timestamp,
      };
    default:
      return { userId: null, current: [], timestamp };
  }
}

/** The links.* values of a screening: one statement when a live rule calls links.*, none otherwise. */
export async function readScreeningLinks(
  db: Pick<Tx, "$queryRawUnsafe">,
  {
    clientId,
    subject,
    subjectId,
    variables,
    rules,
  }: {
    clientId: string;
    subject: TRuleSubject;
    subjectId: string;
    variables: Record<string, unknown>;
    rules: readonly TLoadedRule[];
  },
): Promise<TLinkValues | null> {
  const requests = linkPlan(rules, subject);
  if (!requests) return null;
  return readLinkSignals(db, { clientId, ...linkSubject(subject, subjectId, variables), requests });
}

type TWrap = (evaluate: () => TEvaluatedRule) => TEvaluatedRule;

/**
 * Evaluates with links.* bound to `values`; `evaluate` gets the per-rule wrapper for evaluateRules
 * (composed with `inner`, e.g. the sanctions one). `used`: the calls each rule made, by version id.
 */
export function withLinks<T>(
  values: TLinkValues | null,
  inner: TWrap | undefined,
  evaluate: (wrap: TWrap | undefined) => T,
): { result: T; used: Record<string, Record<string, number>> } {
  return evaluateWithLinks(values, (wrapRule) =>
    evaluate(values ? (e) => wrapRule(() => (inner ? inner(e) : e())) : inner),
  );
}
