"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, Dialog, ErrorNote, inputClass } from "@/components/ui";
import { useConfirmTransaction } from "@/components/transactions/hooks";

type TKind = "fraud" | "chargeback";
const TITLES: Record<TKind, string> = { fraud: "Mark as fraud", chargeback: "Mark as chargeback" };

/**
 * "Mark as fraud" / "Mark as chargeback" with a required note; by default the transaction's open alerts
 * are confirmed with the same verdict. The page re-renders from the server afterwards.
 */
export function ConfirmActions({
  transactionId,
  isFraud,
  isChargeback,
  openAlerts,
}: {
  transactionId: string;
  isFraud: boolean;
  isChargeback: boolean;
  /** Alerts of the transaction still waiting for a verdict. */
  openAlerts: number;
}) {
  const router = useRouter();
  const [kind, setKind] = useState<TKind | null>(null);
  const [feedback, setFeedback] = useState("");
  const [closeAlerts, setCloseAlerts] = useState(true);
  const confirm = useConfirmTransaction(transactionId);
  const close = () => {
    setKind(null);
    setFeedback("");
    setCloseAlerts(true);
    confirm.reset();
  };
  return (
    <>
      <div className="flex gap-2">
        <Button variant="danger" disabled={isFraud} onClick={() => setKind("fraud")}>
          {isFraud ? "Confirmed fraud" : "Mark as fraud"}
        </Button>
        <Button variant="secondary" disabled={isChargeback} onClick={() => setKind("chargeback")}>
          {isChargeback ? "Chargeback recorded" : "Mark as chargeback"}
        </Button>
      </div>
      <Dialog open={kind !== null} onClose={close} title={kind ? TITLES[kind] : ""} testId="confirm-dialog">
        {kind && (
          <form
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              confirm.mutate(
                { kind, feedback, closeAlerts },
                {
                  onSuccess: () => {
                    close();
                    router.refresh();
                  },
                },
              );
            }}
          >
            <label className="block text-sm font-medium text-slate-800">
              {kind === "fraud" ? "Why is this fraud?" : "Chargeback details"} (required)
              <textarea
                data-autofocus
                required
                className={`${inputClass} mt-1 w-full`}
                rows={3}
                value={feedback}
                onChange={(e) => setFeedback(e.target.value)}
              />
            </label>
            {openAlerts > 0 && (
              <label className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="mt-0.5"
                  checked={closeAlerts}
                  onChange={(e) => setCloseAlerts(e.target.checked)}
                />
                <span>
                  Also confirm the transaction&apos;s {openAlerts} open{" "}
                  {openAlerts === 1 ? "alert" : "alerts"} with this note
                </span>
              </label>
            )}
            {confirm.error && <ErrorNote>{confirm.error.message}</ErrorNote>}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                variant={kind === "fraud" ? "danger" : "primary"}
                disabled={confirm.isPending || !feedback.trim()}
              >
                {kind === "fraud" ? "Confirm fraud" : "Confirm chargeback"}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
