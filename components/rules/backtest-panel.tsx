"use client";

import { useRef, useState } from "react";
import { rulesApi } from "@/components/rules/query";
import { Button, Card, ErrorNote, Table, Td, formatTime, inputClass } from "@/components/ui";
import { errorText } from "@/lib/admin/fetch-json";
import type { TBacktestSample } from "@/lib/backtest/run-backtest";

const SHOWN_HITS = 500;
const DAY = 86_400_000;

function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

type TState = {
  running: boolean;
  processed: number;
  total: number | null;
  fired: number;
  errors: number;
  firstError: string | null;
  hits: TBacktestSample[];
  done: boolean;
};

const IDLE: TState = {
  running: false,
  processed: 0,
  total: null,
  fired: 0,
  errors: 0,
  firstError: null,
  hits: [],
  done: false,
};

/**
 * Runs a rule version over stored transactions batch by batch (one request each), so progress
 * shows while it runs and stopping is just not asking for the next batch.
 */
export function BacktestPanel({
  ruleId,
  versions,
}: {
  ruleId: string;
  versions: Array<{ id: string; version: number; status: string }>;
}) {
  const now = Date.now();
  const [from, setFrom] = useState(toLocalInput(now - 30 * DAY));
  const [to, setTo] = useState(toLocalInput(now + 60_000));
  const [versionId, setVersionId] = useState(versions[0]?.id ?? "");
  const [state, setState] = useState<TState>(IDLE);
  const [error, setError] = useState<unknown>(null);
  const stopped = useRef(false);

  async function run() {
    stopped.current = false;
    setError(null);
    let acc: TState = { ...IDLE, running: true };
    setState(acc);
    try {
      let run = await rulesApi.startBacktest({
        ruleId,
        version: versions.find((v) => v.id === versionId)?.version,
        from: new Date(from).getTime(),
        to: new Date(to).getTime(),
      });
      while (run.state === "running" && !stopped.current) {
        run = await rulesApi.continueBacktest(run.id);
        acc = {
          ...acc,
          total: run.total,
          processed: run.processed,
          fired: run.draftHits,
          errors: run.draftErrors,
          firstError: run.firstError,
          hits: [...run.samples.onlyDraft, ...run.samples.both].slice(0, SHOWN_HITS),
        };
        setState(acc);
      }
      setState({ ...acc, running: false, done: true });
    } catch (err) {
      setError(err);
      setState({ ...acc, running: false });
    }
  }

  const pct = state.total
    ? Math.min(100, Math.round((state.processed / state.total) * 100))
    : state.done
      ? 100
      : 0;
  return (
    <Card title="Backtest">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-xs text-slate-600">
          Version
          <select
            aria-label="Backtest version"
            className={inputClass}
            value={versionId}
            onChange={(e) => setVersionId(e.target.value)}
          >
            {versions.map((v) => (
              <option key={v.id} value={v.id}>
                v{v.version} ({v.status})
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs text-slate-600">
          From
          <input
            aria-label="Backtest from"
            type="datetime-local"
            className={inputClass}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </label>
        <label className="text-xs text-slate-600">
          To
          <input
            aria-label="Backtest to"
            type="datetime-local"
            className={inputClass}
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        </label>
        {state.running ? (
          <Button variant="secondary" onClick={() => (stopped.current = true)}>
            Stop
          </Button>
        ) : (
          <Button onClick={() => void run()}>Run backtest</Button>
        )}
      </div>

      {(state.running || state.done) && (
        <div className="mt-4 space-y-2">
          <div
            className="h-2 w-full overflow-hidden rounded bg-slate-100"
            role="progressbar"
            aria-valuenow={pct}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <div className="h-2 bg-brand-500 transition-all" style={{ width: `${pct}%` }} />
          </div>
          <p className="text-sm text-slate-700" data-testid="backtest-summary">
            {state.running ? "Running… " : "Done. "}
            {state.processed} of {state.total ?? "?"} transactions evaluated;{" "}
            <strong data-testid="backtest-fired">{state.fired}</strong> would have fired
            {state.errors > 0 && `; ${state.errors} evaluation error(s)`}
          </p>
          {state.firstError && <p className="text-xs text-amber-700">First error: {state.firstError}</p>}
          {state.hits.length > 0 && (
            <Table head={["Transaction", "Amount", "Occurred"]}>
              {state.hits.map((h) => (
                <tr key={h.subjectId}>
                  <Td className="font-mono">
                    <a
                      className="text-brand-700 hover:underline"
                      href={`/dashboard/transactions/${encodeURIComponent(h.subjectId)}`}
                    >
                      {h.subjectId}
                    </a>
                  </Td>
                  <Td>
                    {h.amount} {h.currencyCode}
                  </Td>
                  <Td>{formatTime(h.occurredAt)}</Td>
                </tr>
              ))}
            </Table>
          )}
          {state.fired > state.hits.length && (
            <p className="text-xs text-slate-500">Showing the first {SHOWN_HITS}.</p>
          )}
        </div>
      )}
      {error !== null && <ErrorNote>{errorText(error)}</ErrorNote>}
    </Card>
  );
}
