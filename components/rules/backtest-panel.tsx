"use client";

import { useState } from "react";
import { errorMessage } from "@/components/api/client";
import { useLatestBacktest, useRunBacktest } from "@/components/rules/hooks";
import {
  Button,
  Card,
  DateTime,
  ErrorNote,
  EnumLabel,
  Money,
  PersonName,
  Table,
  Td,
  inputClass,
  linkClass,
} from "@/components/ui";
import type { TBacktestRunView, TBacktestSample } from "@/lib/backtest/run-backtest";
import { formatNumber } from "@/lib/format";

const DAY = 86_400_000;

function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

const SUBJECT_PAGES: Record<string, string> = {
  transaction: "/dashboard/transactions",
  user: "/dashboard/users",
};

function Samples({
  title,
  samples,
  count,
  subject,
  testId,
}: {
  title: string;
  samples: TBacktestSample[];
  count: number;
  subject: string;
  testId: string;
}) {
  const page = SUBJECT_PAGES[subject];
  return (
    <div data-testid={testId}>
      <h3 className="mb-2 text-sm font-semibold text-slate-800">
        {title} ({formatNumber(count)})
        {count > samples.length && (
          <span className="font-normal text-slate-600"> · first {samples.length}</span>
        )}
      </h3>
      {samples.length === 0 ? (
        <p className="text-sm text-slate-600">None.</p>
      ) : (
        <Table head={subject === "transaction" ? ["Transaction", "Amount", "Occurred"] : ["Id", "Screened"]}>
          {samples.map((s) => (
            <tr key={`${s.subjectId}-${s.occurredAt}`}>
              <Td className="font-mono">
                {page ? (
                  <a className={linkClass} href={`${page}/${encodeURIComponent(s.subjectId)}`}>
                    {s.subjectId}
                  </a>
                ) : (
                  s.subjectId
                )}
              </Td>
              {subject === "transaction" && (
                <Td>
                  {s.amount !== undefined && s.currencyCode ? (
                    <Money amount={s.amount} currency={s.currencyCode} />
                  ) : (
                    "—"
                  )}
                </Td>
              )}
              <Td>
                <DateTime value={s.occurredAt} />
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

/** `inProgress`: this page is asking for its batches (a run left by a closed page stays partial). */
function Result({ run, inProgress }: { run: TBacktestRunView; inProgress: boolean }) {
  const pct = run.total ? Math.min(100, Math.round((run.processed / run.total) * 100)) : 100;
  const live = run.liveVersion !== null;
  return (
    <div className="mt-4 space-y-4" data-testid="backtest-result">
      <div
        className="h-2 w-full overflow-hidden rounded bg-slate-100"
        role="progressbar"
        aria-label="Backtest progress"
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-2 bg-brand-500 transition-all" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-sm text-slate-700" data-testid="backtest-summary">
        {run.state === "done"
          ? "Done: "
          : run.state === "running" && inProgress
            ? "Running: "
            : "Stopped before the end: "}
        {formatNumber(run.processed)} of {formatNumber(run.total ?? 0)}{" "}
        {run.subject === "transaction" ? "transactions" : "screenings"} from <DateTime value={run.from} /> to{" "}
        <DateTime value={run.to} />. Run <DateTime value={run.createdAt} />
        {run.createdBy ? (
          <>
            {" "}
            by <PersonName person={run.createdBy} />
          </>
        ) : null}
        .
      </p>
      <Table head={["", `Draft v${run.draftVersion}`, live ? `Live v${run.liveVersion}` : "Live"]}>
        <tr>
          <Td className="font-medium">Would fire</Td>
          <Td className="tabular-nums">
            <span data-testid="backtest-draft-hits">{formatNumber(run.draftHits)}</span>
          </Td>
          <Td className="tabular-nums">
            {live ? (
              <span data-testid="backtest-live-hits">{formatNumber(run.liveHits)}</span>
            ) : (
              "Nothing live"
            )}
            {live && run.liveStatus && (
              <span className="text-slate-600">
                {" "}
                (<EnumLabel value={run.liveStatus} />)
              </span>
            )}
          </Td>
        </tr>
        <tr>
          <Td className="font-medium">Only here</Td>
          <Td className="tabular-nums">
            <span data-testid="backtest-only-draft">{formatNumber(run.onlyDraft)}</span>
          </Td>
          <Td className="tabular-nums">
            <span data-testid="backtest-only-live">{live ? formatNumber(run.onlyLive) : "—"}</span>
          </Td>
        </tr>
        <tr>
          <Td className="font-medium">Evaluation errors</Td>
          <Td className="tabular-nums">{formatNumber(run.draftErrors)}</Td>
          <Td className="tabular-nums">{live ? formatNumber(run.liveErrors) : "—"}</Td>
        </tr>
      </Table>
      {run.firstError && <p className="text-xs text-amber-800">First error: {run.firstError}</p>}
      <div className="space-y-4">
        <Samples
          title="Only in the draft"
          samples={run.samples.onlyDraft}
          count={run.onlyDraft}
          subject={run.subject}
          testId="samples-only-draft"
        />
        <Samples
          title="Only in live"
          samples={run.samples.onlyLive}
          count={run.onlyLive}
          subject={run.subject}
          testId="samples-only-live"
        />
        <Samples
          title="In both"
          samples={run.samples.both}
          count={run.both}
          subject={run.subject}
          testId="samples-both"
        />
      </div>
    </div>
  );
}

/**
 * "What changes if I publish?": a version (by default the draft being edited) and the live version
 * over the same stored history, side by side. The last run stays until the next one.
 */
export function BacktestPanel({
  ruleId,
  versions,
  defaultVersion,
  canRun,
  initial,
}: {
  ruleId: string;
  versions: Array<{ version: number; label: string }>;
  defaultVersion: number;
  canRun: boolean;
  initial: TBacktestRunView | null;
}) {
  const now = Date.now();
  const [from, setFrom] = useState(toLocalInput(now - 30 * DAY));
  const [to, setTo] = useState(toLocalInput(now + 60_000));
  const [version, setVersion] = useState(defaultVersion);
  const latest = useLatestBacktest(ruleId, initial);
  const { run, stop } = useRunBacktest(ruleId);
  const running = run.isPending;

  return (
    <Card title="Backtest: what changes if I publish?">
      {canRun && (
        <div className="flex flex-wrap items-end gap-3">
          <label className="text-xs text-slate-700">
            Version
            <select
              aria-label="Backtest version"
              className={inputClass}
              value={version}
              onChange={(e) => setVersion(Number(e.target.value))}
            >
              {versions.map((v) => (
                <option key={v.version} value={v.version}>
                  {v.label}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs text-slate-700">
            From
            <input
              aria-label="Backtest from"
              type="datetime-local"
              className={inputClass}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
          </label>
          <label className="text-xs text-slate-700">
            To
            <input
              aria-label="Backtest to"
              type="datetime-local"
              className={inputClass}
              value={to}
              onChange={(e) => setTo(e.target.value)}
            />
          </label>
          {running ? (
            <Button variant="secondary" onClick={stop}>
              Stop
            </Button>
          ) : (
            <Button
              onClick={() =>
                run.mutate({ version, from: new Date(from).getTime(), to: new Date(to).getTime() })
              }
            >
              Run backtest
            </Button>
          )}
        </div>
      )}
      {run.isError && <ErrorNote>{errorMessage(run.error)}</ErrorNote>}
      {latest.data ? (
        <Result run={latest.data} inProgress={running} />
      ) : (
        <p className="mt-3 text-sm text-slate-600">
          Not run yet. It evaluates the chosen version and the live one over every stored record of the
          period.
        </p>
      )}
    </Card>
  );
}
