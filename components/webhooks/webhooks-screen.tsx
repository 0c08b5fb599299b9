"use client";

import { Fragment, useState } from "react";
import { ApiError, errorMessage } from "@/components/api/client";
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  DateTime,
  DoneNote,
  EnumLabel,
  ErrorNote,
  inputClass,
  Table,
  Td,
} from "@/components/ui";
import {
  useCreateSubscription,
  useDeliveries,
  useDisableSubscription,
  useRedeliver,
  useRedeliverFailed,
  useRetryNow,
  useSubscriptions,
} from "@/components/webhooks/hooks";
import { deliveryErrorText } from "@/lib/webhooks/delivery-error-text";
import type { TDeliveryState, TSubscriptionView } from "@/lib/admin/webhooks";

const STATE_TONE = { delivered: "green", failed: "red", retrying: "amber", pending: "slate" } as const;

const FIELD_LABELS: Record<string, string> = {
  "/url": "The URL",
  "/events": "The event list",
  "/secret": "The signing secret",
};

/** Validation details as sentences: "/url: must start with http:// or https://" → "The URL must start with …". */
function webhookErrorText(err: unknown): string {
  if (!(err instanceof ApiError) || err.details.length === 0)
    return err instanceof Error ? err.message : String(err);
  return err.details
    .map((detail) => {
      const match = /^(\/[^:]*): (.*)$/.exec(detail);
      const label = match ? FIELD_LABELS[match[1]!.replace(/\/\d+$/, "")] : undefined;
      const text = label && match ? `${label} ${match[2]}` : (match?.[2] ?? detail);
      return /[.!?]$/.test(text) ? text : `${text}.`;
    })
    .join(" ");
}

function relative(ms: number): string {
  const seconds = Math.round((ms - Date.now()) / 1000);
  if (seconds <= 0) return "due now";
  if (seconds < 90) return `in ${seconds} s`;
  if (seconds < 5400) return `in ${Math.round(seconds / 60)} min`;
  return `in ${Math.round(seconds / 3600)} h`;
}

function StateBadge({ state }: { state: TDeliveryState }) {
  return (
    <Badge tone={STATE_TONE[state]}>
      <EnumLabel value={state} />
    </Badge>
  );
}

function CreateSubscription({ allowedEvents }: { allowedEvents: string[] }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [secret, setSecret] = useState("");
  const create = useCreateSubscription();
  return (
    <Card title="New subscription">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { url, events, ...(secret.trim() && { secret }) },
            {
              onSuccess: () => {
                setUrl("");
                setEvents([]);
                setSecret("");
              },
            },
          );
        }}
      >
        <label className="block text-xs font-medium text-slate-700">
          URL
          <input
            className={inputClass}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/webhooks"
          />
        </label>
        <fieldset>
          <legend className="text-xs font-medium text-slate-700">Events</legend>
          <div className="mt-1 grid grid-cols-2 gap-1 md:grid-cols-3">
            {allowedEvents.map((ev) => (
              <label key={ev} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={events.includes(ev)}
                  onChange={(e) =>
                    setEvents((cur) => (e.target.checked ? [...cur, ev] : cur.filter((x) => x !== ev)))
                  }
                />
                {ev}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="block text-xs font-medium text-slate-700">
          Signing secret (leave blank to generate one)
          <input
            className={inputClass}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            autoComplete="off"
          />
        </label>
        {create.isError && <ErrorNote>{webhookErrorText(create.error)}</ErrorNote>}
        {create.data?.productionWarning && (
          <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="production-warning">
            Accepted here because this is not a production server. In production this subscription would be
            refused: its URL {create.data.productionWarning}.
          </p>
        )}
        {/* the create button is disabled once the form is cleared: the note says what happened and takes focus */}
        {create.isSuccess && (
          <DoneNote key={create.submittedAt}>
            Subscription created; it receives the chosen events from now on.
          </DoneNote>
        )}
        {create.data?.secret && (
          <div className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="generated-secret">
            Signing secret, shown only now: <code className="select-all font-mono">{create.data.secret}</code>
          </div>
        )}
        <Button type="submit" disabled={create.isPending || !url || events.length === 0}>
          Create subscription
        </Button>
      </form>
    </Card>
  );
}

export function WebhooksScreen() {
  const [failedOnly, setFailedOnly] = useState(false);
  const [disabling, setDisabling] = useState<TSubscriptionView | null>(null);
  const subs = useSubscriptions();
  const deliveries = useDeliveries(failedOnly);
  const disable = useDisableSubscription();
  const redeliver = useRedeliver();
  const retryNow = useRetryNow();
  const redeliverFailed = useRedeliverFailed();
  const [redeliveringAll, setRedeliveringAll] = useState<TSubscriptionView | null>(null);
  // The Redeliver button goes away once the delivery is queued: the note says so and takes the focus.
  // A delivery of a disabled subscription can only fail again: no Redeliver there, the reason instead.
  const disabledSubs = new Set(subs.data?.subscriptions.filter((s) => !s.active).map((s) => s.id));
  const [redelivered, setRedelivered] = useState<{ n: number; text: string } | null>(null);

  return (
    <div className="space-y-6">
      <ConfirmDialog
        open={disabling !== null}
        title="Disable this subscription?"
        description={`No more events will be sent to ${disabling?.url ?? ""}.`}
        confirmLabel="Disable subscription"
        danger
        pending={disable.isPending}
        onClose={() => setDisabling(null)}
        onConfirm={() => disabling && disable.mutate(disabling.id, { onSettled: () => setDisabling(null) })}
      />
      <ConfirmDialog
        open={redeliveringAll !== null}
        title="Redeliver every failed delivery?"
        description={`Every delivery to ${redeliveringAll?.url ?? ""} that failed for good is sent again now, with the same delivery id and body and a fresh retry schedule.`}
        confirmLabel="Redeliver all failed"
        pending={redeliverFailed.isPending}
        onClose={() => setRedeliveringAll(null)}
        onConfirm={() =>
          redeliveringAll &&
          redeliverFailed.mutate(redeliveringAll.id, {
            onSuccess: (r) =>
              setRedelivered((prev) => ({
                n: (prev?.n ?? 0) + 1,
                text:
                  r.requeued === 0
                    ? "No failed deliveries to send again."
                    : `${r.requeued} failed ${r.requeued === 1 ? "delivery" : "deliveries"} queued to be sent again.`,
              })),
            onSettled: () => setRedeliveringAll(null),
          })
        }
      />
      <Card title="Subscriptions">
        {subs.isError && <ErrorNote>{errorMessage(subs.error)}</ErrorNote>}
        {redeliverFailed.isError && <ErrorNote>{errorMessage(redeliverFailed.error)}</ErrorNote>}
        {disable.isError && <ErrorNote>{errorMessage(disable.error)}</ErrorNote>}
        <Table
          head={["URL", "Events", "Status", "Created", ""]}
          empty={
            subs.data?.subscriptions.length === 0 && (
              <p className="p-4 text-sm text-slate-600">No subscriptions.</p>
            )
          }
        >
          {subs.data?.subscriptions.map((s) => (
            <tr key={s.id} data-testid="subscription-row">
              <Td>
                <div className="w-60 whitespace-normal break-all font-mono text-xs">{s.url}</div>
                {s.productionWarning && (
                  <div
                    className="mt-1 w-60 whitespace-normal text-xs text-amber-800"
                    data-testid="subscription-production-warning"
                  >
                    Production would refuse this target: its URL {s.productionWarning}.
                  </div>
                )}
              </Td>
              <Td>
                <div className="w-48 whitespace-normal text-xs">{s.events.join(", ")}</div>
              </Td>
              <Td>{s.active ? <Badge tone="green">Active</Badge> : <Badge>Disabled</Badge>}</Td>
              <Td>
                <DateTime value={s.createdAt} />
              </Td>
              <Td>
                {s.active && (
                  <div className="flex flex-col items-stretch gap-1">
                    <Button variant="secondary" onClick={() => setRedeliveringAll(s)}>
                      Redeliver all failed…
                    </Button>
                    <Button variant="secondary" onClick={() => setDisabling(s)}>
                      Disable
                    </Button>
                  </div>
                )}
              </Td>
            </tr>
          ))}
        </Table>
      </Card>
      {subs.data && <CreateSubscription allowedEvents={subs.data.allowedEvents} />}
      <Card
        title="Delivery log"
        actions={
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={failedOnly} onChange={(e) => setFailedOnly(e.target.checked)} />
            Failed only
          </label>
        }
      >
        {deliveries.isError && <ErrorNote>{errorMessage(deliveries.error)}</ErrorNote>}
        {redeliver.isError && <ErrorNote>{errorMessage(redeliver.error)}</ErrorNote>}
        {retryNow.isError && <ErrorNote>{errorMessage(retryNow.error)}</ErrorNote>}
        {redelivered && !redeliver.isError && (
          <div className="mb-3">
            <DoneNote key={redelivered.n}>{redelivered.text}</DoneNote>
          </div>
        )}
        <Table
          head={["Created", "Event", "Target", "Status", "Attempts", ""]}
          empty={
            deliveries.data?.deliveries.length === 0 && (
              <p className="p-4 text-sm text-slate-600">
                {failedOnly ? "No failed or retrying deliveries." : "No deliveries."}
              </p>
            )
          }
        >
          {deliveries.data?.deliveries.map((d) => (
            <tr
              key={d.id}
              data-testid="delivery-row"
              data-status={d.status}
              data-state={d.state}
              className="align-top"
            >
              {/* Td does not wrap; each cell's own div does, so the log fits the card without scrolling */}
              <Td>
                <div className="w-24 whitespace-normal text-xs">
                  <DateTime value={d.createdAt} />
                </div>
              </Td>
              <Td>
                <div className="w-28 whitespace-normal break-words font-mono text-xs">
                  {/* breaks after the dot only: "transaction." / "screened", never mid-word */}
                  {d.eventType.split(".").map((part, i) => (
                    <Fragment key={i}>
                      {i > 0 ? (
                        <>
                          .<wbr />
                        </>
                      ) : null}
                      {part}
                    </Fragment>
                  ))}
                </div>
              </Td>
              <Td>
                <div className="w-36 whitespace-normal break-all font-mono text-xs">
                  {d.url ?? d.subscriptionId}
                </div>
              </Td>
              <Td>
                <div className="w-40 whitespace-normal">
                  <StateBadge state={d.state} />
                  {d.state === "retrying" && d.nextAttemptAt !== null && (
                    <div className="mt-1 text-xs text-slate-600" data-testid="next-attempt">
                      Next attempt <DateTime value={d.nextAttemptAt} timeOnly /> ({relative(d.nextAttemptAt)})
                    </div>
                  )}
                  {d.lastError && (
                    <div className="mt-1 break-words text-xs text-red-700" title={d.lastError}>
                      {deliveryErrorText(d.lastError)}
                    </div>
                  )}
                </div>
              </Td>
              <Td>
                <ol className="w-56 space-y-0.5 whitespace-normal text-xs" data-testid="attempts">
                  {d.attemptLog.map((a) => (
                    <li key={a.attempt} className="break-words">
                      <span className="font-mono">
                        #{a.attempt} <DateTime value={a.startedAt} timeOnly /> ·{" "}
                        {a.responseStatus ?? "no response"} · {a.durationMs} ms
                      </span>
                      {a.error && a.responseStatus === null && (
                        <span className="text-red-700" title={a.error}>
                          {" "}
                          · {deliveryErrorText(a.error)}
                        </span>
                      )}
                    </li>
                  ))}
                </ol>
              </Td>
              <Td>
                {d.state === "failed" && disabledSubs.has(d.subscriptionId) && (
                  <span className="whitespace-normal text-xs text-slate-600">Subscription disabled</span>
                )}
                {d.state === "retrying" && !disabledSubs.has(d.subscriptionId) && (
                  <Button
                    variant="secondary"
                    disabled={retryNow.isPending}
                    onClick={() =>
                      retryNow.mutate(d.id, {
                        onSuccess: (r) =>
                          setRedelivered((prev) => ({
                            n: (prev?.n ?? 0) + 1,
                            text: r.requeued
                              ? `${d.eventType}: next attempt now instead of at its scheduled time; its row shows it.`
                              : `${d.eventType} is no longer waiting for a retry (${r.status}).`,
                          })),
                      })
                    }
                  >
                    Retry now
                  </Button>
                )}
                {d.state === "failed" && !disabledSubs.has(d.subscriptionId) && (
                  <Button
                    variant="secondary"
                    disabled={redeliver.isPending}
                    onClick={() =>
                      redeliver.mutate(d.id, {
                        onSuccess: () =>
                          setRedelivered((r) => ({
                            n: (r?.n ?? 0) + 1,
                            text: `${d.eventType} queued to be sent again; its row shows the new attempts.`,
                          })),
                      })
                    }
                  >
                    Redeliver
                  </Button>
                )}
              </Td>
            </tr>
          ))}
        </Table>
      </Card>
    </div>
  );
}
