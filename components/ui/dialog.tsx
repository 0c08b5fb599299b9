"use client";

import { useEffect, useId, useRef, type ReactNode, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

/** Not a tab stop: the checked radio of its group is. */
function isUncheckedRadio(el: HTMLElement): boolean {
  return el instanceof HTMLInputElement && el.type === "radio" && !el.checked;
}

/**
 * The one modal of the dashboard: labelled by its title, keeps Tab inside, closes on Esc and gives focus back
 * to whatever opened it. Put `data-autofocus` on the control that should take focus first. When what opened it
 * is gone or lost focus on the way (a submit button disabled while its request ran), `returnFocusRef` takes it.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  size = "md",
  testId,
  returnFocusRef,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  size?: "sm" | "md" | "lg";
  testId?: string;
  returnFocusRef?: RefObject<HTMLElement | null>;
}) {
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const panel = panelRef.current;
    if (!open || !panel) return;
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    const fallback = returnFocusRef;
    // The marked control, unless it is disabled (an "Apply" with nothing to apply yet): then the first tab stop.
    const items = focusables(panel);
    const wanted = panel.querySelector<HTMLElement>("[data-autofocus]");
    const first =
      (wanted && items.includes(wanted) ? wanted : items.find((el) => !isUncheckedRadio(el))) ?? panel;
    first.focus();

    function onKeyDown(e: KeyboardEvent) {
      if (!panel) return;
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (e.key !== "Tab") return;
      const items = focusables(panel);
      const head = items[0];
      const tail = items[items.length - 1];
      if (!head || !tail) {
        e.preventDefault();
        panel.focus();
        return;
      }
      const active = document.activeElement;
      const outside = !panel.contains(active);
      if (e.shiftKey && (active === head || active === panel || outside)) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (active === tail || outside)) {
        e.preventDefault();
        head.focus();
      }
    }

    document.addEventListener("keydown", onKeyDown, true);
    return () => {
      document.removeEventListener("keydown", onKeyDown, true);
      if (opener?.isConnected) opener.focus();
      else fallback?.current?.focus();
    };
  }, [open, returnFocusRef]);

  if (!open) return null;
  // Rendered where it is opened (a table cell, a right-aligned toolbar): its text resets what it would inherit.
  return (
    <div className="fixed inset-0 z-30 flex items-center justify-center whitespace-normal bg-slate-900/50 p-4 text-left font-sans text-base font-normal normal-case tracking-normal">
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        data-testid={testId}
        className={cx(
          "max-h-[90vh] w-full overflow-y-auto rounded-lg bg-white p-5 shadow-xl",
          size === "sm" ? "max-w-sm" : size === "lg" ? "max-w-2xl" : "max-w-lg",
        )}
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description && (
          <p id={descriptionId} className="mt-1 text-sm text-slate-600">
            {description}
          </p>
        )}
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}

/** A yes/no question in a Dialog, for actions that must not happen on a stray click. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  danger = false,
  pending = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description} size="sm">
      <div className="flex justify-end gap-2">
        <Button variant="secondary" data-autofocus onClick={onClose}>
          Cancel
        </Button>
        <Button variant={danger ? "danger" : "primary"} disabled={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
