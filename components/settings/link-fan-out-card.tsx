"use client";

import { useState } from "react";
import { errorMessage } from "@/components/api/client";
import { useSaveSettings } from "@/components/settings/hooks";
import { Button, Card, ErrorNote, inputClass } from "@/components/ui";

/**
 * The fan-out cap of user links: a shared phone, device, IP or account held by more users than this
 * links nobody (a public IP or a payment processor's account would otherwise link everyone).
 */
export function LinkFanOutCard({ initial }: { initial: number }) {
  const [text, setText] = useState(String(initial));
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  const save = useSaveSettings(() => ({ linkFanOutCap: value }));
  return (
    <Card title="User links" className="mt-6">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <p className="text-sm text-slate-700">
          Two users are linked when they share a phone, email, IP address, device fingerprint, bank account,
          crypto address, wallet or card fingerprint. A value shared by more users than this cap links nobody
          and is shown as capped, in the network view, in{" "}
          <code className="font-mono">GET /v1/users/&#123;userId&#125;/links</code> and in the{" "}
          <code className="font-mono">links.*</code> functions of rules.
        </p>
        <label className="block max-w-xs text-xs font-medium text-slate-700">
          Fan-out cap (users per shared value)
          <input
            className={inputClass}
            inputMode="numeric"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby="link-fan-out-help"
          />
        </label>
        <p id="link-fan-out-help" className="text-xs text-slate-600">
          A whole number from 2 to 10,000; the default is 50.
        </p>
        {save.isError && <ErrorNote>{errorMessage(save.error)}</ErrorNote>}
        {save.isSuccess && (
          <p role="status" className="text-sm text-emerald-800">
            Saved: values shared by more than {value} users no longer link them.
          </p>
        )}
        <Button type="submit" disabled={save.isPending || value === initial || text.trim() === ""}>
          Save fan-out cap
        </Button>
      </form>
    </Card>
  );
}
