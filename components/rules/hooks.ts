"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { apiFetch } from "@/components/api/client";
import { ruleKeys } from "@/components/rules/query-keys";
import type { TFieldError } from "@/lib/admin/validate-rule-draft";
import type { TBacktestRunView } from "@/lib/backtest/run-backtest";
import type { TRuleStatusChange } from "@/lib/rules/set-rule-status";
import type { TWrittenVersion } from "@/lib/rules/write-rule-version";

function rulePath(ruleId: string, rest = ""): string {
  return `/dashboard-api/rules/${encodeURIComponent(ruleId)}${rest}`;
}

export type TRuleValidation = {
  /** The engine's answer for exactly the definition passed in; undefined until it has come back. */
  result: { valid: boolean; errors: TFieldError[] } | undefined;
  /** Waiting for the author to pause, or for the engine's answer to this definition. */
  checking: boolean;
};

/**
 * Validates the definition with the rule engine 400 ms after the author stops typing. An answer is
 * only ever given for the definition it was asked about: while the definition differs from the one
 * last sent (typing on), or its answer is still on the way, there is none (`checking`), so an answer
 * for earlier text is never shown beside newer text nor lets it be saved. The form keeps its own
 * state: nothing here writes to it.
 */
export function useRuleValidation(definition: Record<string, unknown>): TRuleValidation {
  const serialized = JSON.stringify(definition);
  const [debounced, setDebounced] = useState(serialized);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(serialized), 400);
    return () => clearTimeout(timer);
  }, [serialized]);
  const query = useQuery({
    queryKey: ruleKeys.validation(debounced),
    // an answer nobody waits for any more is not waited for either
    queryFn: ({ signal }) =>
      apiFetch<{ valid: boolean; errors: TFieldError[] }>("/dashboard-api/rules/validate", {
        json: { definition: JSON.parse(debounced) as Record<string, unknown> },
        signal,
      }),
    staleTime: Infinity,
  });
  const current = debounced === serialized;
  return { result: current ? query.data : undefined, checking: !current || query.isPending };
}

/** Saves a draft: a new rule (no ruleId) or the next version of an existing one. */
export function useSaveDraft(ruleId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (definition: Record<string, unknown>) =>
      ruleId
        ? apiFetch<TWrittenVersion>(rulePath(ruleId), { method: "PUT", json: { definition } })
        : apiFetch<TWrittenVersion>("/dashboard-api/rules", { json: { definition } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ruleKeys.all }),
  });
}

export function usePublishRule(ruleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { version: number; status: string; note: string }) =>
      apiFetch<TRuleStatusChange>(rulePath(ruleId, "/publish"), { json: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ruleKeys.all }),
  });
}

export function useChangeRuleStatus(ruleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: string) =>
      apiFetch<TRuleStatusChange>(rulePath(ruleId, "/status"), { json: { status } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ruleKeys.all }),
  });
}

/** The rule's latest backtest (kept until the next run). */
export function useLatestBacktest(ruleId: string, initial: TBacktestRunView | null) {
  return useQuery({
    queryKey: ruleKeys.backtest(ruleId),
    queryFn: async () =>
      (await apiFetch<{ run: TBacktestRunView | null }>(rulePath(ruleId, "/backtest"))).run,
    initialData: initial,
    staleTime: Infinity,
  });
}

/**
 * Starts a backtest and asks for batch after batch until it is done or stopped; every batch's totals
 * land in the query cache, so the panel shows progress as it goes.
 */
export function useRunBacktest(ruleId: string) {
  const queryClient = useQueryClient();
  const stopping = useRef(false);
  const run = useMutation({
    mutationFn: async (input: { version: number; from: number; to: number }) => {
      stopping.current = false;
      const put = (view: TBacktestRunView) => queryClient.setQueryData(ruleKeys.backtest(ruleId), view);
      let view = await apiFetch<TBacktestRunView>("/dashboard-api/backtests", { json: { ruleId, ...input } });
      put(view);
      while (view.state === "running") {
        view = await apiFetch<TBacktestRunView>(`/dashboard-api/backtests/${encodeURIComponent(view.id)}`, {
          json: { stop: stopping.current },
        });
        put(view);
      }
      return view;
    },
  });
  return { run, stop: () => (stopping.current = true) };
}
