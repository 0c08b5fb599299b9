// The formatting module as React pieces, usable from server and client components alike.
import { formatEnum, formatMoney, formatPerson, revealInvisible, type TPerson } from "@/lib/format";
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
      <ClientText value={label} />
    </span>
  );
}

/**
 * A value a client sent (a name, an id, a free text) wherever the dashboard shows it: isolated from
 * the text around it (a right-to-left override inside cannot reorder the page), its invisible
 * formatting and control characters shown as `⟨U+202E⟩` markers, and with `truncate` cut to one line
 * with an ellipsis (the full value on hover) so one long value cannot widen a list.
 */
export function ClientText({
  value,
  truncate = false,
  maxWidth = "max-w-64",
  className,
}: {
  value: string | null | undefined;
  truncate?: boolean;
  /** With `truncate`: the widest it gets (a table cell sizes to its content, so the cap is absolute). */
  maxWidth?: string;
  className?: string;
}) {
  if (value === null || value === undefined || value === "") return <span className={className}>—</span>;
  const shown = revealInvisible(value);
  // A caller's `block` must win over the truncation's inline-block (both in one class list, the CSS
  // order decides, and inline-block came last): a second line (an id under a name) stays a line.
  const ownLine = /(^|\s)block(\s|$)/.test(className ?? "");
  return (
    <bdi
      className={cx(
        "[unicode-bidi:isolate]",
        truncate
          ? cx(ownLine ? "block" : "inline-block", "truncate align-bottom", maxWidth)
          : "[overflow-wrap:anywhere]",
        className,
      )}
      title={truncate ? shown : undefined}
      data-client-text=""
    >
      {shown}
    </bdi>
  );
}
