// Seven daily bars of a rule's hits (oldest left), inline SVG.
export function HitChart({ daily, label }: { daily: number[]; label: string }) {
  const max = Math.max(1, ...daily);
  const w = 8;
  const gap = 3;
  const h = 24;
  return (
    <svg width={daily.length * (w + gap)} height={h} role="img" aria-label={label}>
      {daily.map((n, i) => {
        const bh = n === 0 ? 1 : Math.max(2, Math.round((n / max) * h));
        return (
          <rect
            key={i}
            x={i * (w + gap)}
            y={h - bh}
            width={w}
            height={bh}
            rx={1}
            className={n === 0 ? "fill-slate-200" : "fill-brand-500"}
          >
            <title>{`${n} hit(s), ${6 - i === 0 ? "last 24 h" : `${6 - i} day(s) before`}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
