import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';

export interface Account {
  id: number;
  email: string;
  password: string;
  firstname: string;
  lastname: string;
  isAdmin: boolean;
  token: string;
}

/** The sample workspace's shared password, as the login page gets it. */
export async function samplePassword(request: APIRequestContext): Promise<string> {
  const hints = await request.get('/api/auth/hints');
  const body = (await hints.json()) as { sample: { email: string; password: string } | null };
  if (!body.sample) throw new Error('the e2e server has no sample account');
  return body.sample.password;
}

export const SAMPLE_ADMIN = 'dana.whitfield@example.com';
export const SAMPLE_MEMBER = 'marco.rossi@example.com';

export async function apiLogin(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<Account> {
  const res = await request.post('/api/auth/login', { data: { login: { email, password } } });
  expect(res.status(), await res.text()).toBe(200);
  return { ...((await res.json()) as Omit<Account, 'password'>), password };
}

/** Opens a page already signed in, by writing the session the web app keeps in localStorage. */
export async function signIn(page: Page, account: Account): Promise<void> {
  const user = {
    id: account.id,
    firstname: account.firstname,
    lastname: account.lastname,
    email: account.email,
    isAdmin: account.isAdmin,
  };
  await page.addInitScript(
    ([token, userJson]) => {
      if (!window.localStorage.getItem('sitelog.token')) {
        window.localStorage.setItem('sitelog.token', token);
        window.localStorage.setItem('sitelog.user', userJson);
      }
    },
    [account.token, JSON.stringify(user)] as const,
  );
}

/** Fails the test on any uncaught page error. */
export const test = base.extend<{ admin: Account; member: Account; pageErrors: Error[] }>({
  admin: async ({ request }, use) => {
    await use(await apiLogin(request, SAMPLE_ADMIN, await samplePassword(request)));
  },
  member: async ({ request }, use) => {
    await use(await apiLogin(request, SAMPLE_MEMBER, await samplePassword(request)));
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors: Error[] = [];
      page.on('pageerror', (err) => errors.push(err));
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Unique text for names, so tests never depend on each other's data. */
export const unique = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
