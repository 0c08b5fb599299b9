// The formatting module as React pieces, usable from server and client components alike.
import { formatEnum, formatMoney, formatPerson, type TPerson } from "@/lib/format";
import { cx } from "@/components/ui/cx";

export function Money({
  amount,
  currency,
  className,
}: {
  amount: number | string | bigint | null | undefined;
  currency: string;
  className?: string;
}) {
  return (
    <span className={cx("whitespace-nowrap tabular-nums", className)}>{formatMoney(amount, currency)}</span>
  );
}

export function EnumLabel({ value, className }: { value: string | null | undefined; className?: string }) {
  return <span className={className}>{formatEnum(value)}</span>;
}

/** Display name, with the email on hover (the email itself when there is no name). */
export function PersonName({
  person,
  className,
}: {
  person: TPerson | null | undefined;
  className?: string;
}) {
  if (!person) return <span className={className}>—</span>;
  const label = formatPerson(person);
  return (
    <span className={className} title={label === person.email ? undefined : person.email}>
      {label}
    </span>
  );
}
