/**
 * The bell's query key, on its own: the shell's first download reads the count by it, and this
 * keeps the rest of the feature's keys out of that download.
 */
export const unreadKey = ['notifications', 'unread'] as const;
