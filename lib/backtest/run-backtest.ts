// "What changes if I publish?": a rule's candidate version (a draft) and its live version evaluated
// side by side over the same stored history. A run advances in batches the dashboard requests one
// after another (each a bounded amount of work, so progress shows and stopping is not asking for
// more); its counts and samples are stored after every batch and kept until the rule's next run.
import type { TSessionUser } from "@/lib/auth/session";
import { resolvePeople } from "@/lib/dashboard-users/resolve-people";
import { pgPool, prisma } from "@/lib/db";
import { evaluateWithLists, liveListSource } from "@/lib/lists/in-list";
import { currentListIndexes } from "@/lib/lists/list-cache";
import type { BacktestRun } from "@/lib/generated/prisma/client";
import { notFound, validationError } from "@/lib/errors/domain-error";
import type { TPerson } from "@/lib/format";
import type { TRuleSubject } from "@/lib/rules/schemas";
import {
  countHistory,
  decodeCursor,
  encodeCursor,
  readHistory,
  type THistoryItem,
} from "@/lib/backtest/backtest-history";
import { prepareSanctionsScreening, sanctionsWrap } from "@/lib/sanctions/prepare-sanctions-screening";
import { computeAggregates } from "@/lib/screening/aggregates";
import { loadedRule } from "@/lib/screening/evaluate-rules";
import { evaluateRules, planAggregates } from "@/lib/screening/run-rules";
import { readScreeningLinks, withLinks } from "@/lib/links/screening-links";

export const TOTAL_CAP = 1_000_000;
/** Wall-clock time a batch may evaluate for; the rest of its items wait for the next batch. */
export const BATCH_TIME_MS = 2_000;
/** Items kept per sample (only in the draft, only in live, in both). */
export const SAMPLE_SIZE = 25;

export type TBacktestSample = {
  subjectId: string;
  occurredAt: number;
  amount?: string;
  currencyCode?: string;
};
export type TBacktestSamples = {
  onlyDraft: TBacktestSample[];
  onlyLive: TBacktestSample[];
  both: TBacktestSample[];
};

export type TBacktestRunView = {
  id: string;
  ruleId: string;
  subject: string;
  draftVersion: number;
  liveVersion: number | null;
  liveStatus: string | null;
  from: number;
  to: number;
  state: "running" | "done" | "stopped";
  total: number | null;
  processed: number;
  draftHits: number;
  liveHits: number;
  onlyDraft: number;
  onlyLive: number;
  both: number;
  draftErrors: number;
  liveErrors: number;
  firstError: string | null;
  samples: TBacktestSamples;
  createdAt: number;
  /** Who started the run: display name first, the email on hover. */
  createdBy: TPerson | null;
  updatedAt: number;
};

async function view(ruleId: string, run: BacktestRun): Promise<TBacktestRunView> {
  const people = await resolvePeople({ clientId: run.clientId, emails: [run.createdBy] });
  const samples = run.samples as Partial<TBacktestSamples>;
  return {
    id: run.id,
    ruleId,
    subject: run.subject,
    draftVersion: run.draftVersion,
    liveVersion: run.liveVersion,
    liveStatus: run.liveStatus,
    from: run.periodFrom.getTime(),
    to: run.periodTo.getTime(),
    state: run.state as TBacktestRunView["state"],
    total: run.total,
    processed: run.processed,
    draftHits: run.draftHits,
    liveHits: run.liveHits,
    onlyDraft: run.onlyDraft,
    onlyLive: run.onlyLive,
    both: run.draftHits - run.onlyDraft,
    draftErrors: run.draftErrors,
    liveErrors: run.liveErrors,
    firstError: run.firstError,
    samples: {
      onlyDraft: samples.onlyDraft ?? [],
      onlyLive: samples.onlyLive ?? [],
      both: samples.both ?? [],
    },
    createdAt: run.createdAt.getTime(),
    createdBy: people.byEmail(run.createdBy),
    updatedAt: run.updatedAt.getTime(),
  };
}

/**
 * Starts a backtest of `version` (default: the rule's newest version) against the live version over
 * [from, to], replacing the rule's previous run. Nothing is evaluated yet: see continueBacktest.
 */
export async function startBacktest(
  user: TSessionUser,
  input: { ruleId: string; version?: number; from: number; to: number },
): Promise<TBacktestRunView> {
  const clientId = user.clientId;
  if (input.to < input.from) throw validationError(["/to: Must not be before from"]);
  const rule = await prisma.rule.findUnique({
    where: { clientId_ruleId: { clientId, ruleId: input.ruleId } },
    select: { id: true, subject: true, status: true, liveVersion: true, currentVersion: true },
  });
  if (!rule) throw notFound("/ruleId", "Rule not found");
  const draftNumber = input.version ?? rule.currentVersion;
  const [draft, live] = await Promise.all([
    prisma.ruleVersion.findUnique({ where: { ruleRef_version: { ruleRef: rule.id, version: draftNumber } } }),
    rule.liveVersion === null
      ? null
      : prisma.ruleVersion.findUnique({
          where: { ruleRef_version: { ruleRef: rule.id, version: rule.liveVersion } },
        }),
  ]);
  if (!draft) throw notFound("/version", "Rule version not found");
  const from = new Date(input.from);
  const to = new Date(input.to);
  const subject = draft.subject as TRuleSubject;
  const total = await countHistory(clientId, subject, from, to, TOTAL_CAP);
  const data = {
    clientId,
    subject,
    draftVersionId: draft.id,
    draftVersion: draft.version,
    liveVersionId: live?.id ?? null,
    liveVersion: live?.version ?? null,
    liveStatus: live ? rule.status : null,
    periodFrom: from,
    periodTo: to,
    state: total === 0 ? "done" : "running",
    cursor: null,
    total,
    processed: 0,
    draftHits: 0,
    liveHits: 0,
    onlyDraft: 0,
    onlyLive: 0,
    draftErrors: 0,
    liveErrors: 0,
    firstError: null,
    samples: { onlyDraft: [], onlyLive: [], both: [] },
    createdBy: user.email,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  const run = await prisma.backtestRun.upsert({
    where: { ruleRef: rule.id },
    create: { ruleRef: rule.id, ...data },
    update: data,
  });
  return await view(input.ruleId, run);
}

/** The rule's latest backtest, or null when it never ran. */
export async function latestBacktest(
  user: TSessionUser,
  { ruleId }: { ruleId: string },
): Promise<TBacktestRunView | null> {
  const rule = await prisma.rule.findUnique({
    where: { clientId_ruleId: { clientId: user.clientId, ruleId } },
    select: { backtests: true },
  });
  if (!rule) throw notFound("/ruleId", "Rule not found");
  const run = rule.backtests[0];
  return run ? await view(ruleId, run) : null;
}

function sample(item: THistoryItem): TBacktestSample {
  return {
    subjectId: item.subjectId,
    occurredAt: item.occurredAt,
    ...(item.amount !== undefined && { amount: item.amount }),
    ...(item.currencyCode !== undefined && { currencyCode: item.currencyCode }),
  };
}

/**
 * Evaluates the next batch of a running backtest (or stops it) and stores the new totals. A batch
 * that raced another request for the same run is discarded, so no item is counted twice.
 */
export async function continueBacktest(
  user: TSessionUser,
  { runId, stop = false, batchSize = 200 }: { runId: string; stop?: boolean; batchSize?: number },
): Promise<TBacktestRunView> {
  const clientId = user.clientId;
  const run = await prisma.backtestRun.findFirst({
    where: { id: runId, clientId },
    include: {
      rule: { select: { ruleId: true, id: true } },
    },
  });
  if (!run) throw notFound("/runId", "Backtest not found");
  const ruleId = run.rule.ruleId;
  if (run.state !== "running") return await view(ruleId, run);
  if (stop) {
    const stopped = await prisma.backtestRun.update({
      where: { id: run.id },
      data: { state: "stopped", updatedAt: new Date() },
    });
    return await view(ruleId, stopped);
  }

  const versions = await prisma.ruleVersion.findMany({
    where: { clientId, id: { in: [run.draftVersionId, ...(run.liveVersionId ? [run.liveVersionId] : [])] } },
  });
  const draftRow = versions.find((v) => v.id === run.draftVersionId);
  if (!draftRow) throw notFound("/runId", "Backtest not found");
  const liveRow = versions.find((v) => v.id === run.liveVersionId);
  // distinct refs so the two evaluations never share an aggregate entry by rule
  // evaluated as if active: the question is whether each would have fired
  const draft = loadedRule({ ruleId, ruleRef: `${run.ruleRef}:draft`, status: "active" }, draftRow);
  const live = liveRow
    ? loadedRule({ ruleId, ruleRef: `${run.ruleRef}:live`, status: "active" }, liveRow)
    : null;
  const rules = live ? [draft, live] : [draft];
  const subject = run.subject as TRuleSubject;
  const plan = planAggregates(rules, subject);

  const items = await readHistory(clientId, subject, {
    from: run.periodFrom,
    to: run.periodTo,
    cursor: decodeCursor(run.cursor),
    limit: Math.min(500, Math.max(1, batchSize)),
  });
  const samples = run.samples as TBacktestSamples;
  const next = {
    processed: run.processed,
    draftHits: run.draftHits,
    liveHits: run.liveHits,
    onlyDraft: run.onlyDraft,
    onlyLive: run.onlyLive,
    draftErrors: run.draftErrors,
    liveErrors: run.liveErrors,
    firstError: run.firstError,
    samples: {
      onlyDraft: [...(samples.onlyDraft ?? [])],
      onlyLive: [...(samples.onlyLive ?? [])],
      both: [...(samples.both ?? [])],
    },
  };
  const keep = (list: TBacktestSample[], item: THistoryItem) => {
    if (list.length < SAMPLE_SIZE) list.push(sample(item));
  };

  // inList reads the lists as they are now: the backtest answers "what if I publish now"
  const lists = liveListSource(
    await currentListIndexes(
      pgPool(),
      clientId,
      rules.map((r) => ({ ...r, subject })),
    ),
  );
  const stopAt = performance.now() + BATCH_TIME_MS;
  let last: THistoryItem | undefined;
  for (const item of items) {
    // evaluation is synchronous: give the process's other requests their turn between items
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (last && performance.now() > stopAt) break;
    const values = plan.requests.length
      ? await computeAggregates(prisma, {
          clientId,
          subject,
          subjectId: item.subjectId,
          timestamp: item.occurredAt,
          variables: item.variables,
          aggregates: plan.requests,
        })
      : new Map();
    const sanctions = await prepareSanctionsScreening(prisma, {
      clientId,
      subject,
      subjectId: item.subjectId,
      variables: item.variables,
      conditions: rules.map((r) => r.condition),
    });
    // links.* read the links as they are now, windows back from the record's time (as inList above)
    const links = await readScreeningLinks(prisma, {
      clientId,
      subject,
      subjectId: item.subjectId,
      variables: item.variables,
      rules,
    });
    const {
      result: {
        result: { evaluated },
      },
    } = withLinks(links, sanctionsWrap(sanctions), (wrap) =>
      evaluateWithLists(lists, () =>
        evaluateRules(rules, subject, item.variables, values, plan.compileErrors, wrap),
      ),
    );
    const [d, l] = evaluated;
    if (d?.error) next.draftErrors++;
    if (l?.error) next.liveErrors++;
    next.firstError ??= d?.error ?? l?.error ?? null;
    const inDraft = d?.triggered === true;
    const inLive = l?.triggered === true;
    if (inDraft) next.draftHits++;
    if (inLive) next.liveHits++;
    if (inDraft && !inLive) {
      next.onlyDraft++;
      keep(next.samples.onlyDraft, item);
    } else if (inLive && !inDraft) {
      next.onlyLive++;
      keep(next.samples.onlyLive, item);
    } else if (inDraft && inLive) keep(next.samples.both, item);
    next.processed++;
    last = item;
  }

  const done = last === items[items.length - 1] && items.length < Math.min(500, Math.max(1, batchSize));
  const updated = await prisma.backtestRun.updateMany({
    // the run as read: another batch applied meanwhile (or a new run) leaves this one unapplied
    where: { id: run.id, cursor: run.cursor, processed: run.processed, createdAt: run.createdAt },
    data: {
      ...next,
      cursor: last ? encodeCursor(last) : run.cursor,
      state: done ? "done" : "running",
      updatedAt: new Date(),
    },
  });
  // either way the stored run is the answer (a discarded batch changes nothing)
  void updated;
  return await view(ruleId, await prisma.backtestRun.findUniqueOrThrow({ where: { id: run.id } }));
}
