import type { APIRequestContext, Page } from '@playwright/test';
import type { Profile, ProfilesResponse, Project, ReportDetail, Upload } from '@sitelog/shared';
import {
  behindProxy,
  bearer,
  createProject,
  createUpload,
  expect,
  unique,
  type Account,
} from './fixtures.js';

/**
 * The spec's §2 route table, shared by the walk, the axe scan and the phone layout check:
 * each route knows its path (with real ids of data the calling test made), its tab title, and
 * the key content that shows it really rendered.
 */

export interface WalkData {
  /** A photo the admin uploaded: the admin may edit it, the member may not. */
  upload: Upload;
  /** The project of that photo. */
  project: Project;
  /** Every member's profile, by id. */
  profiles: Map<number, Profile>;
  /**
   * A report the admin made, its PDF ready, of a photo in a project of its own (so searches for
   * the walk's project find no report): the admin may manage and share it, the member may not.
   */
  report: ReportDetail;
  admin: Account;
  member: Account;
}

async function getJson<T>(request: APIRequestContext, account: Account, path: string): Promise<T> {
  const res = await request.get(path, { headers: bearer(account) });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** A report of one photo, made by `account` through the API; answers it once its PDF is ready. */
export async function createReadyReport(
  request: APIRequestContext,
  account: Account,
  upload: Upload,
  title: string,
): Promise<ReportDetail> {
  const today = new Date().toISOString().slice(0, 10);
  const res = await request.post('/api/report', {
    headers: bearer(account),
    data: {
      projectId: upload.project.id,
      type: 'daily',
      title,
      intro: 'Made by the e2e suite.',
      from: today,
      to: today,
      layout: 2,
      photos: [{ uploadId: upload.id, caption: 'The walk’s photo.' }],
    },
  });
  expect(res.status(), await res.text()).toBe(202);
  const { id } = (await res.json()) as ReportDetail;
  let report: ReportDetail | null = null;
  await expect
    .poll(
      async () => {
        report = await getJson<ReportDetail>(request, account, `/api/report/${id}`);
        return report.status;
      },
      { message: `report ${id} made`, timeout: 60_000 },
    )
    .toBe('ready');
  return report!;
}

/**
 * A project and a photo of the calling test's own (the admin creates both), so that no test
 * depends on the sample workspace or on what another spec left behind; and a report, in a
 * project of its own.
 */
export async function loadWalkData(
  request: APIRequestContext,
  admin: Account,
  member: Account,
): Promise<WalkData> {
  const made = await createProject(request, admin, unique('Walk project'));
  const upload = await createUpload(request, admin, made.id, unique('Walk photo'));
  // Read back after the upload, so its counts and thumbnails are the ones the pages show.
  const project = await getJson<Project>(request, admin, `/api/project/id/${made.id}`);
  const reportProject = await createProject(request, admin, unique('Walk report project'));
  const reportPhoto = await createUpload(request, admin, reportProject.id, unique('Report photo'));
  const report = await createReadyReport(request, admin, reportPhoto, unique('Walk report'));
  // Last, so the counts (projects, uploads) include everything made above.
  const { profiles } = await getJson<ProfilesResponse>(request, admin, '/api/user/all/profile');
  return {
    upload,
    project,
    profiles: new Map(profiles.map((profile) => [profile.id, profile])),
    report,
    admin,
    member,
  };
}

export interface RouteContext {
  page: Page;
  data: WalkData;
  /** Who is walking. */
  account: Account;
}

export interface SpecRoute {
  /** File name of its screenshot. */
  name: string;
  path: (data: WalkData, account: Account) => string;
  /** `document.title` once the page has loaded. */
  title: (data: WalkData, account: Account) => string;
  /** Visited signed out (the login page). */
  signedOut?: boolean;
  /** Admins only: a member is sent to /login (spec §5). */
  adminOnly?: boolean;
  /** Shows a member something else than an admin (creator-only controls, the admin guard). */
  differsByRole?: boolean;
  /**
   * False for a screen that asks the API for nothing (beyond the session): the walk's error-state
   * test then expects the page itself, and no data call at all.
   */
  loadsData?: false;
  /** Waits for and checks the key content of the page. */
  check: (context: RouteContext) => Promise<void>;
}

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const main = (page: Page) => page.getByRole('main');
const fullName = (person: { firstname: string; lastname: string }) =>
  `${person.firstname} ${person.lastname}`;
const isCreator = (account: Account, creator: { id: number }) => account.id === creator.id;

/** The profile the walker opens: the other account's. */
const otherAccount = (data: WalkData, account: Account) =>
  account.id === data.admin.id ? data.member : data.admin;

export const specRoutes: SpecRoute[] = [
  {
    name: 'login',
    path: () => '/login',
    title: () => 'Login · Sitelog',
    signedOut: true,
    check: async ({ page, account }) => {
      const email = page.getByLabel('Email');
      const password = page.getByLabel('Password', { exact: true });
      if (behindProxy) {
        // Through nginx the sample password is never offered (its X-Forwarded-For tells the app
        // the request is not from this machine): the fields stay empty, the walker types.
        const hints = await page.evaluate(() =>
          fetch('/api/auth/hints').then((res) => res.json() as Promise<{ sample: unknown }>),
        );
        expect(hints.sample, 'the sample account offered through nginx').toBeNull();
        await expect(email).toHaveValue('');
        await expect(password).toHaveValue('');
        await email.fill(account.email);
        await password.fill(account.password);
        await expect(email).toHaveValue(account.email);
        await expect(password).toHaveValue(account.password);
      } else {
        await expect(email).not.toHaveValue('');
        await expect(password).not.toHaveValue('');
      }
      await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
    },
  },
  {
    name: 'home',
    path: () => '/',
    title: () => 'Home · Sitelog',
    check: async ({ page, data }) => {
      await expect(page.getByRole('heading', { level: 2, name: 'Bookmarks' })).toBeVisible();
      const latest = page.getByRole('region', { name: 'Latest uploads' });
      await expect(latest.getByRole('heading', { name: 'Latest uploads' })).toBeVisible();
      await expect(latest.getByRole('img').first()).toBeVisible();
      await expect(latest.getByRole('link', { name: data.upload.name }).first()).toBeVisible();
    },
  },
  {
    name: 'uploads-latest',
    path: () => '/uploads/latest',
    title: () => 'Latest uploads · Sitelog',
    check: async ({ page, data }) => {
      await expect(h1(page, 'Latest uploads')).toBeVisible();
      await expect(main(page).getByRole('link', { name: data.upload.name }).first()).toBeVisible();
    },
  },
  {
    name: 'upload',
    differsByRole: true,
    path: ({ upload }) => `/upload/${upload.id}`,
    title: ({ upload }) => `${upload.name} · Sitelog`,
    check: async ({ page, data, account }) => {
      const { upload } = data;
      await expect(h1(page, upload.name)).toBeVisible();
      await expect(main(page).getByRole('img', { name: upload.name })).toBeVisible();
      await expect(main(page).getByRole('link', { name: fullName(upload.creator) })).toBeVisible();
      await expect(main(page).getByRole('link', { name: upload.project.name })).toBeVisible();
      // Tags (issue 15): chips, or none yet; the creator may change them.
      const tags = main(page).getByRole('region', { name: 'Tags' });
      await expect(tags).not.toContainText('Under construction');
      await expect(tags.getByRole('button', { name: /^(Add|Edit) tags$/ })).toHaveCount(
        isCreator(account, upload.creator) ? 1 : 0,
      );
      // Comments (issue 15): the thread (or none yet) and the field to write one.
      const comments = main(page).getByRole('region', { name: 'Comments' });
      await expect(comments).not.toContainText('Under construction');
      await expect(comments.getByRole('combobox', { name: 'Comment' })).toBeVisible();
      // EDIT only for the upload's creator (spec §6).
      await expect(main(page).getByRole('link', { name: 'Edit' })).toHaveCount(
        isCreator(account, upload.creator) ? 1 : 0,
      );
    },
  },
  {
    name: 'upload-edit',
    differsByRole: true,
    path: ({ upload }) => `/upload/${upload.id}/edit`,
    title: ({ upload }) => `Edit ${upload.name} · Sitelog`,
    check: async ({ page, data, account }) => {
      await expect(h1(page, 'Edit photo')).toBeVisible();
      if (isCreator(account, data.upload.creator)) {
        await expect(page.getByLabel('Name')).toHaveValue(data.upload.name);
        await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
        // Save appears only after a change (spec §2).
        await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
      } else {
        await expect(main(page).getByText(/only the creator of this photo/i)).toBeVisible();
        await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
      }
    },
  },
  {
    name: 'upload-edit-batch',
    differsByRole: true,
    path: ({ upload }) => `/upload/${upload.id}/edit/batch`,
    title: () => 'Photo uploaded · Sitelog',
    check: async ({ page, data, account }) => {
      await expect(h1(page, 'Photo uploaded')).toBeVisible();
      const creatorOnly = ['Done', 'Add another one', 'Delete'];
      if (isCreator(account, data.upload.creator)) {
        for (const name of creatorOnly) {
          await expect(page.getByRole('button', { name })).toBeVisible();
        }
      } else {
        await expect(main(page).getByText(/only the creator of this photo/i)).toBeVisible();
        for (const name of creatorOnly) {
          await expect(page.getByRole('button', { name })).toHaveCount(0);
        }
      }
    },
  },
  {
    name: 'uploader-create',
    path: ({ project }) => `/uploader/${project.id}/create`,
    title: () => 'Add photos · Sitelog',
    check: async ({ page, data }) => {
      await expect(h1(page, 'Add photos')).toBeVisible();
      await expect(main(page).getByRole('link', { name: data.project.name })).toBeVisible();
      await expect(page.getByLabel('Take photo')).toBeAttached();
      await expect(page.getByLabel('Choose photos')).toBeAttached();
      await expect(page.getByLabel('Name')).toBeVisible();
      await expect(page.getByLabel('Description')).toBeVisible();
      // Tags (issue 15) for the next photos.
      await expect(page.getByRole('combobox', { name: 'Tags' })).toBeVisible();
    },
  },
  {
    name: 'uploader-choose',
    path: () => '/uploader/choose',
    title: () => 'Choose a project · Sitelog',
    check: async ({ page, data }) => {
      await expect(h1(page, 'Choose a project')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Bookmarked and followed' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'All other projects' })).toBeVisible();
      await expect(main(page).getByText(data.project.name).first()).toBeVisible();
    },
  },
  {
    name: 'projects',
    path: () => '/projects',
    title: () => 'My projects · Sitelog',
    check: async ({ page }) => {
      await expect(h1(page, 'My projects')).toBeVisible();
      await expect(main(page).getByRole('status')).toHaveCount(0);
    },
  },
  {
    name: 'projects-all',
    path: () => '/projects/all',
    title: () => 'All projects · Sitelog',
    check: async ({ page, data }) => {
      await expect(h1(page, 'All projects')).toBeVisible();
      if ((page.viewportSize()?.width ?? 0) < 600) {
        // Below the sm breakpoint the rows are a list of cards (e2e/long-content.spec.ts).
        const cards = page.getByRole('list', { name: 'All projects' });
        await expect(cards.getByRole('link', { name: data.project.name })).toHaveCount(1);
        return;
      }
      const table = page.getByRole('table', { name: 'All projects' });
      for (const column of ['#', 'Name', 'Location', 'Updated at', 'Creator', 'Uploads']) {
        await expect(table.getByRole('columnheader', { name: column })).toBeAttached();
      }
      await expect(table.getByRole('row').filter({ hasText: data.project.name })).toHaveCount(1);
    },
  },
  {
    name: 'projects-archived',
    path: () => '/projects/archived',
    title: () => 'Archived projects · Sitelog',
    check: async ({ page }) => {
      await expect(h1(page, 'Archived projects')).toBeVisible();
      // Other specs may have archived projects, or none: the list or its empty state.
      await expect(
        main(page)
          .getByRole('table', { name: 'Archived projects' })
          .or(main(page).getByRole('list', { name: 'Archived projects' }))
          .or(main(page).getByText('No archived projects')),
      ).toBeVisible();
      await expect(main(page).getByRole('status')).toHaveCount(0);
    },
  },
  {
    name: 'projects-new',
    loadsData: false,
    path: () => '/projects/new',
    title: () => 'New project · Sitelog',
    check: async ({ page }) => {
      await expect(h1(page, 'New project')).toBeVisible();
      await expect(page.getByLabel('Name')).toBeVisible();
      await expect(page.getByLabel('Location')).toBeVisible();
      await expect(page.getByLabel('Description')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create' })).toBeDisabled();
    },
  },
  {
    name: 'project',
    differsByRole: true,
    path: ({ project }) => `/project/${project.id}`,
    title: ({ project }) => `${project.name} · Sitelog`,
    check: async ({ page, data, account }) => {
      const { project } = data;
      await expect(h1(page, project.name)).toBeVisible();
      await expect(main(page).getByText(project.location).first()).toBeVisible();
      await expect(page.getByRole('button', { name: /^(bookmark|unbookmark)$/i })).toBeVisible();
      await expect(page.getByRole('button', { name: /^(follow|unfollow)$/i })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(
        isCreator(account, project.creator) ? 1 : 0,
      );
      const uploads = page.getByRole('region', { name: 'Uploads' });
      await expect(uploads.getByRole('link', { name: /add upload/i })).toHaveAttribute(
        'href',
        `/uploader/${project.id}/create`,
      );
      await expect(uploads.locator(`[data-upload-tile="${data.upload.id}"]`)).toBeVisible();
      // The walk's project has no report yet: the section says what one is, and NEW REPORT
      // opens the report-creator route, carrying the project (spec §2).
      const reports = page.getByRole('region', { name: 'Reports' });
      await expect(reports.getByText('No reports yet')).toBeVisible();
      await expect(reports.getByRole('link', { name: 'New report' })).toHaveAttribute(
        'href',
        `/reports/create?project=${project.id}`,
      );
    },
  },
  {
    name: 'reports',
    path: () => '/reports',
    title: () => 'Reports · Sitelog',
    check: async ({ page, data }) => {
      await expect(h1(page, 'Reports')).toBeVisible();
      // The walk's report is the newest: on the first page, with its PDF to download.
      const card = main(page)
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: data.report.title, exact: true }) });
      await expect(card).toBeVisible();
      await expect(card.getByRole('link', { name: /^Download/ })).toHaveAttribute(
        'download',
        /\.pdf$/,
      );
      await expect(card).toContainText(/PDF · \d+ pages? · /);
    },
  },
  {
    name: 'report',
    differsByRole: true,
    path: ({ report }) => `/report/${report.id}`,
    title: ({ report }) => `${report.title} · Sitelog`,
    check: async ({ page, data, account }) => {
      await expect(h1(page, data.report.title)).toBeVisible();
      await expect(main(page).getByText('Report ready', { exact: true })).toBeVisible();
      await expect(main(page).getByRole('link', { name: /^Download/ })).toBeVisible();
      await expect(
        main(page).getByRole('list', { name: 'The report’s 1 photo, in order' }),
      ).toBeVisible();
      // The author (the admin) manages and shares it; a member only reads and downloads.
      await expect(
        page.getByRole('heading', { level: 2, name: 'Share outside the team' }),
      ).toHaveCount(account.isAdmin ? 1 : 0);
      await expect(main(page).getByRole('button', { name: 'Delete' })).toHaveCount(
        account.isAdmin ? 1 : 0,
      );
    },
  },
  {
    name: 'reports-create',
    path: ({ project }) => `/reports/create?project=${project.id}`,
    title: () => 'Create a report · Sitelog',
    check: async ({ page, data }) => {
      await expect(h1(page, 'Create a report')).toBeVisible();
      await expect(main(page).getByRole('link', { name: data.project.name })).toHaveAttribute(
        'href',
        `/project/${data.project.id}`,
      );
      // The report creator: the walk's photo (uploaded just now) is in the report to begin with.
      await expect(
        main(page).getByRole('heading', { name: /^In the report: \d+ photos?$/ }),
      ).toBeVisible();
      await expect(main(page).getByRole('button', { name: 'Generate report' })).toBeVisible();
    },
  },
  {
    name: 'notifications',
    path: () => '/notifications',
    title: () => 'Notifications · Sitelog',
    check: async ({ page }) => {
      await expect(h1(page, 'Notifications')).toBeVisible();
      // What the walker was notified of depends on the workspace: the list, or none.
      await expect(
        main(page)
          .getByRole('list', { name: 'Notifications' })
          .or(main(page).getByText("You're all caught up", { exact: true })),
      ).toBeVisible();
      await expect(main(page).getByRole('button', { name: 'Mark all as read' })).toBeVisible();
    },
  },
  {
    name: 'events',
    // The timeline of the walk's own project: its creation and its photo, whoever walks.
    path: ({ project }) => `/events?project=${project.id}`,
    title: () => 'Events · Sitelog',
    check: async ({ page, data }) => {
      await expect(h1(page, 'Events')).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Project' })).toHaveValue(data.project.name);
      await expect(
        main(page).getByRole('link', {
          name: `${fullName(data.admin)} added a photo to ${data.project.name}`,
        }),
      ).toBeVisible();
      await expect(
        main(page).getByRole('link', {
          name: `${fullName(data.admin)} created ${data.project.name}`,
        }),
      ).toBeVisible();
    },
  },
  {
    name: 'search',
    path: (data) => `/search?q=${encodeURIComponent(data.project.name)}`,
    title: (data) => `Search: ${data.project.name} · Sitelog`,
    check: async ({ page, data }) => {
      await expect(h1(page, 'Search')).toBeVisible();
      await expect(
        main(page).getByText(`Results for “${data.project.name}”`, { exact: true }),
      ).toBeVisible();
      const projects = page.getByRole('region', { name: 'Projects' });
      // A project card's link is named by its whole text: the name is part of it.
      await expect(projects.getByRole('link', { name: data.project.name })).toBeVisible();
      // The photo of that project matches by its project's name.
      await expect(
        page
          .getByRole('region', { name: 'Photos' })
          .locator(`[data-upload-tile="${data.upload.id}"]`),
      ).toBeVisible();
      // The walk's report is in a project of its own: the Reports section says none match.
      await expect(
        page
          .getByRole('region', { name: 'Reports' })
          .getByText(`No reports match “${data.project.name}”.`, { exact: true }),
      ).toBeVisible();
    },
  },
  {
    name: 'profile',
    path: () => '/profile',
    title: () => 'My profile · Sitelog',
    check: async ({ page, account }) => {
      await expect(h1(page, 'My profile')).toBeVisible();
      await expect(main(page).getByText(account.email)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'My projects' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Latest uploads' })).toBeVisible();
    },
  },
  {
    name: 'profile-id',
    path: (data, account) => `/profile/${otherAccount(data, account).id}`,
    title: (data, account) => `${fullName(otherAccount(data, account))} · Sitelog`,
    check: async ({ page, data, account }) => {
      const other = otherAccount(data, account);
      const profile = data.profiles.get(other.id);
      if (!profile) throw new Error(`no profile for user ${other.id}`);
      await expect(h1(page, fullName(profile))).toBeVisible();
      await expect(
        page.getByRole('heading', { level: 2, name: `Projects (${profile.projectsCount})` }),
      ).toBeVisible();
      await expect(
        page.getByRole('heading', { level: 2, name: `Latest uploads (${profile.uploadsCount})` }),
      ).toBeVisible();
    },
  },
  {
    name: 'teams',
    path: () => '/teams',
    title: () => 'Team · Sitelog',
    check: async ({ page, data }) => {
      await expect(h1(page, 'Team')).toBeVisible();
      for (const name of ['Team info', 'Members', 'Deactivated members']) {
        await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
      }
      const members = page.getByRole('region', { name: 'Members', exact: true });
      const someone = [...data.profiles.values()].find((profile) => profile.isActive);
      if (!someone) throw new Error('the sample workspace has no active members');
      await expect(members.getByText(someone.lastname).first()).toBeVisible();
    },
  },
  {
    name: 'admin',
    differsByRole: true,
    path: () => '/admin',
    title: () => 'Users management · Sitelog',
    adminOnly: true,
    check: async ({ page, data }) => {
      await expect(h1(page, 'Users management')).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Create' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'List' })).toBeVisible();
      // Create invites with a link by default (issue 15); the password form is one click away.
      await expect(page.getByRole('button', { name: 'Invite member' })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Set a password instead' })).toBeVisible();
      const list = page.getByRole('region', { name: 'List' });
      await expect(list.getByText(data.member.email)).toBeVisible();
      // Admin accounts are hidden from the list (spec §6).
      await expect(list.getByText(data.admin.email)).toHaveCount(0);
    },
  },
];

/**
 * Opens `route` (the session, if any, is already set up), waits until its key content shows,
 * checks the tab title, and waits for the photos in view to load.
 */
export async function openRoute(
  page: Page,
  route: SpecRoute,
  data: WalkData,
  account: Account,
): Promise<void> {
  await page.goto(route.path(data, account));
  await route.check({ page, data, account });
  await expect(page).toHaveTitle(route.title(data, account));
  await imagesInViewLoaded(page);
}

/** Where a member lands on an admin-only route: the login page (spec §5). */
export async function expectSentToLogin(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
}

/** Waits (briefly, without failing) for the images in the viewport to finish loading. */
export async function imagesInViewLoaded(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        Array.from(document.images).every((img) => {
          const box = img.getBoundingClientRect();
          const inView = box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
          return !inView || img.complete;
        }),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}

/** The login page, visited signed out; walk it before signing the page in. */
export const signedOutRoutes = specRoutes.filter((route) => route.signedOut);
/** Every other route, visited signed in. */
export const signedInRoutes = specRoutes.filter((route) => !route.signedOut);
