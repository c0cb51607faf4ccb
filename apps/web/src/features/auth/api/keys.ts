export const authKeys = {
  all: ['auth'] as const,
  hints: () => [...authKeys.all, 'hints'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};
