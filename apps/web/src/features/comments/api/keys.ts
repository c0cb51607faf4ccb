/** Query keys of the comments feature: one root, so a change can refresh every thread at once. */
export const commentKeys = {
  all: ['comments'] as const,
  threads: () => [...commentKeys.all, 'thread'] as const,
  /** One photo's thread, every page loaded so far. */
  thread: (uploadId: number) => [...commentKeys.threads(), uploadId] as const,
  /** The members `@` completion offers for what was typed after the `@`. */
  mentionable: (q: string) => [...commentKeys.all, 'mentionable', q] as const,
};
