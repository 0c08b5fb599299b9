import type { ButtonHTMLAttributes } from "react";
import { cx } from "@/components/ui/cx";

type TVariant = "primary" | "secondary" | "danger" | "ghost";
const VARIANTS: Record<TVariant, string> = {
  primary: "bg-brand-600 text-white hover:bg-brand-700 disabled:opacity-60",
  secondary: "border border-slate-400 bg-white text-slate-800 hover:bg-slate-50 disabled:opacity-60",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:opacity-60",
  ghost: "text-slate-700 hover:bg-slate-100 disabled:opacity-60",
};

export function Button({
  variant = "primary",
  className,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: TVariant }) {
  return (
    <button
      type="button"
      {...props}
      className={cx(
        "rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed",
        VARIANTS[variant],
        className,
      )}
    />
  );
}
