export const authKeys = {
  all: ['auth'] as const,
  hints: () => [...authKeys.all, 'hints'] as const,
  me: () => [...authKeys.all, 'me'] as const,
  /** An invitation link's details, by its token (the public invite page). */
  invitation: (token: string) => [...authKeys.all, 'invitation', token] as const,
};
