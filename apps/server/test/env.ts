// Sizes of the long-running suites, read from the environment (the soak sets larger ones).

/** `process.env[name]` as a positive whole number, or `fallback` when unset. */
export function positiveIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
}
