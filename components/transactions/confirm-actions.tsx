"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, DoneNote, NoteDialog } from "@/components/ui";
import { useConfirmTransaction } from "@/components/transactions/hooks";
import { formatCount } from "@/lib/format";

type TKind = "fraud" | "chargeback";
const TEXT: Record<TKind, { title: string; effect: string; note: string; submit: string; done: string }> = {
  fraud: {
    title: "Mark as fraud",
    effect: "The transaction is recorded as confirmed fraud. Subscribers get transaction.confirmedFraud.",
    note: "Why is this fraud?",
    submit: "Confirm fraud",
    done: "Marked as confirmed fraud.",
  },
  chargeback: {
    title: "Mark as chargeback",
    // Status is a screened field: say that it changes rather than let it change silently.
    effect:
      "The transaction's status becomes Chargeback, which is what rules and aggregates read from now on. Subscribers get transaction.confirmedChargeback.",
    note: "Chargeback details",
    submit: "Confirm chargeback",
    done: "Chargeback recorded.",
  },
};

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
  const [done, setDone] = useState<string | null>(null);
  const confirm = useConfirmTransaction(transactionId);
  const close = () => {
    setKind(null);
    confirm.reset();
  };
  const start = (k: TKind) => {
    setDone(null);
    setKind(k);
  };
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex gap-2">
        <Button variant="danger" disabled={isFraud} onClick={() => start("fraud")}>
          {isFraud ? "Confirmed fraud" : "Mark as fraud"}
        </Button>
        <Button variant="secondary" disabled={isChargeback} onClick={() => start("chargeback")}>
          {isChargeback ? "Chargeback recorded" : "Mark as chargeback"}
        </Button>
      </div>
      {done && <DoneNote>{done}</DoneNote>}
      <NoteDialog
        open={kind !== null}
        onClose={close}
        title={kind ? TEXT[kind].title : ""}
        testId="confirm-dialog"
        intro={kind ? TEXT[kind].effect : undefined}
        noteLabel={kind ? TEXT[kind].note : ""}
        requiredMessage={`Write a note: it is stored with the ${kind === "fraud" ? "fraud mark" : "chargeback"} and sent to your systems.`}
        optionLabel={
          openAlerts > 0 ? (
            <>Also confirm the transaction&apos;s {formatCount(openAlerts, "open alert")} with this note</>
          ) : undefined
        }
        submitLabel={kind ? TEXT[kind].submit : ""}
        danger={kind === "fraud"}
        pending={confirm.isPending}
        error={confirm.error}
        onSubmit={({ note, option }) => {
          if (!kind) return;
          confirm.mutate(
            { kind, feedback: note, closeAlerts: option },
            {
              onSuccess: (result) => {
                setDone(
                  result.alertsClosed > 0
                    ? `${TEXT[kind].done} ${formatCount(result.alertsClosed, "alert")} confirmed with your note.`
                    : TEXT[kind].done,
                );
                close();
                router.refresh();
              },
            },
          );
        }}
      />
    </div>
  );
}
