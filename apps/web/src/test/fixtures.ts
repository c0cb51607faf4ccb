import type { LoginResponse, SessionUser } from '@sitelog/shared';
import { TOKEN_KEY, USER_KEY } from '@/lib/session';

export const member: SessionUser = {
  id: 2,
  firstname: 'Mia',
  lastname: 'Mason',
  email: 'mia@example.com',
  isAdmin: false,
  isActive: true,
};

export const admin: SessionUser = {
  id: 1,
  firstname: 'Ada',
  lastname: 'Admin',
  email: 'ada@example.com',
  isAdmin: true,
  isActive: true,
};

export const loginResponse = (user: SessionUser, token = `token-of-${user.id}`): LoginResponse => ({
  ...user,
  token,
});

/** Puts a session in localStorage the way a previous visit would have left it. */
export function storeSession(user: SessionUser, token = `token-of-${user.id}`): string {
  const { id, firstname, lastname, email, isAdmin } = user;
  window.localStorage.setItem(TOKEN_KEY, token);
  window.localStorage.setItem(
    USER_KEY,
    JSON.stringify({ id, firstname, lastname, email, isAdmin }),
  );
  return token;
}
