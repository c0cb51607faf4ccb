import { describe, expect, it } from 'vitest';
import { admin } from '@/test/fixtures';
import {
  endSession,
  getSession,
  getSessionSnapshot,
  startSession,
  TOKEN_KEY,
  updateSessionUser,
  USER_KEY,
} from './session';

describe('session storage', () => {
  it('keeps the token and only the user record fields under fixed keys', () => {
    startSession({ ...admin, token: 't1' });
    expect(window.localStorage.getItem(TOKEN_KEY)).toBe('t1');
    expect(JSON.parse(window.localStorage.getItem(USER_KEY) ?? 'null')).toEqual({
      id: 1,
      firstname: 'Ada',
      lastname: 'Admin',
      email: 'ada@example.com',
      isAdmin: true,
    });
    expect(getSession()).toEqual({
      token: 't1',
      user: expect.objectContaining({ id: 1, isAdmin: true }) as unknown,
    });
  });

  it('returns the same snapshot while nothing changed', () => {
    startSession({ ...admin, token: 't2' });
    expect(getSessionSnapshot()).toBe(getSessionSnapshot());
  });

  it('remembers that the session ended by logout', () => {
    startSession({ ...admin, token: 't3' });
    endSession('logout');
    expect(getSessionSnapshot()).toEqual({ session: null, endedBy: 'logout' });
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('does not relabel the session with another user', () => {
    startSession({ ...admin, token: 't4' });
    updateSessionUser({ ...admin, id: 99, firstname: 'Someone' });
    expect(getSession()?.user.firstname).toBe('Ada');
    updateSessionUser({ ...admin, firstname: 'Adeline' });
    expect(getSession()?.user.firstname).toBe('Adeline');
  });

  it('reads only a well-formed stored user record, and only its own fields', () => {
    const store = (user: unknown) => {
      window.localStorage.setItem(TOKEN_KEY, 'stored');
      window.localStorage.setItem(USER_KEY, JSON.stringify(user));
    };
    const record = { id: 7, firstname: 'Ann', lastname: 'Lee', email: 'a@x.io', isAdmin: false };
    store({ ...record, isActive: true, token: 'leak' });
    expect(getSession()).toEqual({ token: 'stored', user: record });
    for (const broken of [
      { ...record, id: '7' },
      { ...record, id: 1.5 },
      { ...record, isAdmin: 'yes' },
      { ...record, email: undefined },
      [record],
      null,
    ]) {
      store(broken);
      expect(getSession()).toBeNull();
    }
    window.localStorage.setItem(USER_KEY, '{not json');
    expect(getSession()).toBeNull();
  });
});
