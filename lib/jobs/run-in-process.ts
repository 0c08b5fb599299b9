import type { Inngest, InngestFunction } from "inngest";
import { ServerTiming } from "inngest/internals";
import { StepMode } from "inngest/types";

// One call of the serve protocol without the serve handler: the driver hands the function, its
// event and its memoized steps straight to the SDK's execution engine (what `@inngest/test` does)
// and turns the engine's result into the answer the serve handler would have sent (status, ops),
// mapped exactly as InngestCommHandler.runStep does. In one process there is nobody to
// authenticate, so this skips what made a call cost more than the step itself: the request and
// response signatures (HMAC), the SDK's per-request environment and header reads, zod parsing of
// the body and the Request/Response objects. The Inngest function stays the definition of the
// work; with an Inngest server configured, the server calls /api/inngest as before.

/** A serve request's body as the driver builds it (lib/jobs/execute-run.ts). */
export type TServePayload = {
  event: Record<string, unknown>;
  events: Record<string, unknown>[];
  steps: Record<string, { type: "data"; data: unknown } | { type: "error"; error: unknown }>;
  ctx: {
    run_id: string;
    attempt: number;
    max_attempts: number;
    disable_immediate_execution: boolean;
    use_api: boolean;
    stack: { stack: string[]; current: number };
  };
  version: number;
};

export type TInProcessAnswer = { status: number; headers: Headers; text: string };

/** Runs one serve call of the function `fnId` (`<appId>-<id>`) in this process. */
export type TInProcessRunner = (
  fnId: string,
  stepId: string,
  payload: TServePayload,
) => Promise<TInProcessAnswer>;

type TOutgoingOp = { data?: unknown } & Record<string, unknown>;
type TExecutionResult =
  | { type: "function-resolved"; data: unknown }
  | { type: "function-rejected"; error: unknown; retriable: boolean | string }
  | { type: "step-ran"; step: TOutgoingOp; retriable?: boolean | string }
  | { type: "steps-found"; steps: TOutgoingOp[] }
  | {
      type: "step-not-found";
      step: { id: string; displayName?: string };
      foundSteps: Array<{ id: string; displayName?: string }>;
      totalFoundSteps: number;
    }
  | { type: "change-mode"; to: string };

type TExecutable = {
  createExecution: (opts: { partialOptions: Record<string, unknown> }) => {
    start: () => Promise<TExecutionResult>;
  };
};

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };

function undefinedToNull(value: unknown): unknown {
  return value === undefined ? null : value;
}

function json(status: number, body: unknown, extra: Record<string, string> = {}): TInProcessAnswer {
  return {
    status,
    headers: new Headers({ "Content-Type": "application/json", ...extra }),
    text: JSON.stringify(undefinedToNull(body)),
  };
}

function noRetry(retriable: boolean | string | undefined): Record<string, string> {
  if (retriable === undefined) return {};
  return {
    "x-inngest-no-retry": retriable ? "false" : "true",
    ...(typeof retriable === "string" ? { "retry-after": retriable } : {}),
  };
}

function withNullData(op: TOutgoingOp): TOutgoingOp {
  return { ...op, data: undefinedToNull(op.data) };
}

/** What the serve handler answers for an execution result (InngestCommHandler's handler table). */
export function answerFor(result: TExecutionResult): TInProcessAnswer {
  switch (result.type) {
    case "function-resolved":
      return json(200, result.data);
    case "function-rejected":
      return json(result.retriable ? 500 : 400, result.error, noRetry(result.retriable));
    case "step-ran":
      return json(206, [withNullData(result.step)], noRetry(result.retriable));
    case "steps-found":
      return json(206, result.steps.map(withNullData));
    case "step-not-found":
      return json(
        500,
        {
          error: `Could not find step "${result.step.displayName || result.step.id}" to run; timed out.`,
          requestedStep: result.step.id,
          foundSteps: result.foundSteps,
          totalFoundSteps: result.totalFoundSteps,
        },
        { "x-inngest-no-retry": "false" },
      );
    case "change-mode":
      return json(
        500,
        { error: `Execution asked to change mode to "${result.to}"` },
        { "x-inngest-no-retry": "true" },
      );
  }
}

/** The in-process runner of `functions` of `client` (the app's serve handler serves the same list). */
export function inProcessRunner(
  client: Inngest.Any,
  functions: readonly InngestFunction.Any[],
): TInProcessRunner {
  const byId = new Map(functions.map((fn) => [fn.id(client.id), fn]));
  const timer = new ServerTiming.ServerTiming(silent);
  return async (fnId, stepId, payload) => {
    const fn = byId.get(fnId);
    if (!fn) return json(500, { message: `Could not find function with ID "${fnId}"` });
    const stepState: Record<string, { id: string; data?: unknown; error?: unknown }> = {};
    for (const [id, state] of Object.entries(payload.steps))
      stepState[id] = state.type === "data" ? { id, data: state.data } : { id, error: state.error };
    const runId = payload.ctx.run_id;
    try {
      const result = await (fn as unknown as TExecutable)
        .createExecution({
          partialOptions: {
            client,
            runId,
            stepMode: StepMode.Async,
            data: {
              event: payload.event,
              events: payload.events,
              runId,
              attempt: payload.ctx.attempt,
              maxAttempts: payload.ctx.max_attempts,
            },
            requestStartedAt: Date.now(),
            stepState,
            requestedRunStep: stepId === "step" ? undefined : stepId,
            timer,
            handlerKind: "main",
            disableImmediateExecution: false,
            stepCompletionOrder: payload.ctx.stack.stack,
            reqArgs: [],
            headers: {},
          },
        })
        .start();
      return answerFor(result);
    } catch (err) {
      // What the serve handler answers for an error outside the function: a server error, retried.
      return json(500, { type: "internal", message: (err as Error).message });
    }
  };
}
