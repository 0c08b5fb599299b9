// Shared class lists: inputs keep a visible focus ring (globals.css) and ≥ 4.5:1 text contrast.
export const inputClass =
  "block w-full rounded-md border border-slate-400 bg-white px-2.5 py-1.5 text-sm text-slate-900 placeholder:text-slate-500";

export const linkClass = "text-brand-700 underline-offset-2 hover:underline";
