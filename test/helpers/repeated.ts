// What an answer says twice: every string of at least `min` characters found more than once in it.
// `next_step` is left out: every answer carries it beside SPEC's own form of the same suggestion
// (docs/decisions/next-step-shape.md).
export function repeated(answer: Record<string, unknown>, min = 60): string[] {
  const { next_step: _step, ...value } = answer;
  const seen = new Map<string, number>();
  const walk = (v: unknown) => {
    if (typeof v === 'string' && v.length >= min) seen.set(v, (seen.get(v) ?? 0) + 1);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return [...seen].filter(([, n]) => n > 1).map(([s]) => s);
}
