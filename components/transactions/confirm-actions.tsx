"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ErrorNote, inputClass } from "@/components/ui";
import { useConfirmTransaction } from "@/components/transactions/hooks";

/** "Mark as fraud" / "Mark as chargeback" with feedback; the page re-renders from the server afterwards. */
export function ConfirmActions({
  transactionId,
  isFraud,
  isChargeback,
}: {
  transactionId: string;
  isFraud: boolean;
  isChargeback: boolean;
}) {
  const router = useRouter();
  const [kind, setKind] = useState<"fraud" | "chargeback" | null>(null);
  const [feedback, setFeedback] = useState("");
  const confirm = useConfirmTransaction(transactionId);
  if (!kind)
    return (
      <div className="flex gap-2">
        <Button variant="danger" disabled={isFraud} onClick={() => setKind("fraud")}>
          {isFraud ? "Confirmed fraud" : "Mark as fraud"}
        </Button>
        <Button variant="secondary" disabled={isChargeback} onClick={() => setKind("chargeback")}>
          {isChargeback ? "Chargeback recorded" : "Mark as chargeback"}
        </Button>
      </div>
    );
  return (
    <form
      className="w-80 space-y-2 rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
      aria-label={kind === "fraud" ? "Mark as fraud" : "Mark as chargeback"}
      onSubmit={(e) => {
        e.preventDefault();
        confirm.mutate(
          { kind, feedback },
          {
            onSuccess: () => {
              setKind(null);
              setFeedback("");
              router.refresh();
            },
          },
        );
      }}
    >
      <label className="block text-sm font-medium text-slate-700">
        {kind === "fraud" ? "Why is this fraud?" : "Chargeback details"}
        <textarea
          className={`${inputClass} mt-1`}
          rows={3}
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
        />
      </label>
      {confirm.error && <ErrorNote>{confirm.error.message}</ErrorNote>}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => setKind(null)}>
          Cancel
        </Button>
        <Button type="submit" variant={kind === "fraud" ? "danger" : "primary"} disabled={confirm.isPending}>
          {kind === "fraud" ? "Confirm fraud" : "Confirm chargeback"}
        </Button>
      </div>
    </form>
  );
}
