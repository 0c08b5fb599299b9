"use client";

import { NumberSettingCard } from "@/components/settings/number-setting-card";

/**
 * The fan-out cap of user links: a shared phone, device, IP or account held by more users than this
 * links nobody (a public IP or a payment processor's account would otherwise link everyone).
 */
export function LinkFanOutCard({ initial }: { initial: number }) {
  return (
    <NumberSettingCard
      title="User links"
      setting="linkFanOutCap"
      initial={initial}
      label="Fan-out cap (users per shared value)"
      help="A whole number from 2 to 10,000; the default is 50."
      saveLabel="Save fan-out cap"
      saved={(value) => `Saved: values shared by more than ${value} users no longer link them.`}
    >
      Two users are linked when they share a phone, email, IP address, device fingerprint, bank account,
      crypto address, wallet or card fingerprint. A value shared by more users than this cap links nobody and
      is shown as capped, in the network view, in{" "}
      <code className="font-mono">GET /v1/users/&#123;userId&#125;/links</code> and in the{" "}
      <code className="font-mono">links.*</code> functions of rules.
    </NumberSettingCard>
  );
}
