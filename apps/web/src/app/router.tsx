import { isValidElement, Suspense, type ReactNode } from 'react';
import { BrowserRouter, matchRoutes, Outlet, useRoutes, type RouteObject } from 'react-router';
import { LoadingState } from '@/components/loading-state';
import { prefetch } from '@/lib/api-client';
import { firstPageData } from '@/lib/api-paths';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import { lazyPage } from './lazy-page';
import { RouteErrorBoundary } from './routes/route-error-page';

/*
 * Every page is loaded with its route, so its code (and the libraries only it uses) arrives
 * when the page is first opened rather than with the app. Navigations are transitions, so the
 * current page stays on screen while the next one's code loads; on a first visit the shell is
 * drawn at once and the page area shows a spinner until its code arrives.
 */
const HomePage = lazyPage(() => import('./routes/home-page').then((m) => m.HomePage));
const ProfilePage = lazyPage(() => import('./routes/profile-page').then((m) => m.ProfilePage));
const MemberProfilePage = lazyPage(() =>
  import('./routes/member-profile-page').then((m) => m.MemberProfilePage),
);
const TeamsPage = lazyPage(() => import('./routes/teams-page').then((m) => m.TeamsPage));
const MyProjectsPage = lazyPage(() =>
  import('./routes/my-projects-page').then((m) => m.MyProjectsPage),
);
const AllProjectsPage = lazyPage(() =>
  import('./routes/all-projects-page').then((m) => m.AllProjectsPage),
);
const NewProjectPage = lazyPage(() =>
  import('./routes/new-project-page').then((m) => m.NewProjectPage),
);
const ProjectPage = lazyPage(() => import('./routes/project-page').then((m) => m.ProjectPage));
const UploaderChoosePage = lazyPage(() =>
  import('./routes/uploader-choose-page').then((m) => m.UploaderChoosePage),
);
const LatestUploadsPage = lazyPage(() =>
  import('./routes/latest-uploads-page').then((m) => m.LatestUploadsPage),
);
const UploadPage = lazyPage(() => import('./routes/upload-page').then((m) => m.UploadPage));
const UploadEditPage = lazyPage(() =>
  import('./routes/upload-edit-page').then((m) => m.UploadEditPage),
);
const UploadBatchEditPage = lazyPage(() =>
  import('./routes/upload-batch-edit-page').then((m) => m.UploadBatchEditPage),
);
const UploaderPage = lazyPage(() => import('./routes/uploader-page').then((m) => m.UploaderPage));
const UploaderBatchPage = lazyPage(() =>
  import('./routes/uploader-batch-page').then((m) => m.UploaderBatchPage),
);
const UploadQueuePage = lazyPage(() =>
  import('./routes/upload-queue-page').then((m) => m.UploadQueuePage),
);
const ReportsPage = lazyPage(() => import('./routes/reports-page').then((m) => m.ReportsPage));
const ReportPage = lazyPage(() => import('./routes/report-page').then((m) => m.ReportPage));
const ReportCreatorPage = lazyPage(() =>
  import('./routes/report-creator-page').then((m) => m.ReportCreatorPage),
);
const NotificationsPage = lazyPage(() =>
  import('./routes/notifications-page').then((m) => m.NotificationsPage),
);
const EventsPage = lazyPage(() => import('./routes/events-page').then((m) => m.EventsPage));
const SearchPage = lazyPage(() => import('./routes/search-page').then((m) => m.SearchPage));
const AdminPage = lazyPage(() => import('./routes/admin-page').then((m) => m.AdminPage));
const LoginPage = lazyPage(() => import('./routes/login-page').then((m) => m.LoginPage));
const InvitePage = lazyPage(() => import('./routes/invite-page').then((m) => m.InvitePage));
const ArchivedProjectsPage = lazyPage(() =>
  import('./routes/archived-projects-page').then((m) => m.ArchivedProjectsPage),
);
const NotFoundPage = lazyPage(() => import('./routes/not-found-page').then((m) => m.NotFoundPage));

/**
 * The spec's routes (§2). To add a page: write it in app/routes/ (composing the features it
 * shows), declare it above with lazyPage and add one line to `memberRoutes` (any signed-in
 * user) or `adminRoutes`.
 */
const memberRoutes: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: 'profile', element: <ProfilePage /> },
  { path: 'profile/:id', element: <MemberProfilePage /> },
  { path: 'teams', element: <TeamsPage /> },
  { path: 'projects', element: <MyProjectsPage /> },
  { path: 'projects/all', element: <AllProjectsPage /> },
  { path: 'projects/new', element: <NewProjectPage /> },
  { path: 'project/:id', element: <ProjectPage /> },
  { path: 'uploader/choose', element: <UploaderChoosePage /> },
  { path: 'uploads/latest', element: <LatestUploadsPage /> },
  { path: 'upload/:id', element: <UploadPage /> },
  { path: 'upload/:id/edit', element: <UploadEditPage /> },
  { path: 'upload/:id/edit/batch', element: <UploadBatchEditPage /> },
  { path: 'uploader/:id/create', element: <UploaderPage /> },
  { path: 'uploader/:id/batch', element: <UploaderBatchPage /> },
  { path: 'uploads/queue', element: <UploadQueuePage /> },
  { path: 'projects/archived', element: <ArchivedProjectsPage /> },
  { path: 'reports', element: <ReportsPage /> },
  { path: 'reports/create', element: <ReportCreatorPage /> },
  { path: 'report/:id', element: <ReportPage /> },
  { path: 'notifications', element: <NotificationsPage /> },
  { path: 'events', element: <EventsPage /> },
  { path: 'search', element: <SearchPage /> },
];

const adminRoutes: RouteObject[] = [{ path: 'admin', element: <AdminPage /> }];

export const routes: RouteObject[] = [
  {
    // The login page's fallback; signed-in pages have theirs inside the app shell.
    element: (
      <RouteErrorBoundary>
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
    ),
    children: [
      {
        path: 'login',
        element: (
          <RedirectIfSignedIn>
            <LoginPage />
          </RedirectIfSignedIn>
        ),
      },
      // An invitation link: public, and open to a signed-in browser too (it says whose it is).
      { path: 'invite/:token', element: <InvitePage /> },
      {
        element: (
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        ),
        children: [
          ...memberRoutes,
          { element: <RequireAdmin />, children: adminRoutes },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

/** Calls `preload` on every lazily loaded component in an element tree (pages, the shell). */
function preloadElements(node: ReactNode): void {
  if (!isValidElement<{ children?: ReactNode }>(node)) return;
  const { type } = node;
  if (typeof type === 'function' && 'preload' in type && typeof type.preload === 'function')
    void (type.preload as () => Promise<void>)().catch(() => {
      // Rendering the page loads it again and shows the failure there.
    });
  const { children } = node.props;
  for (const child of Array.isArray(children) ? children : [children])
    preloadElements(child as ReactNode);
}

/**
 * Starts fetching the code of the page at `pathname` (and the shell's lazy part) at once, so it
 * downloads while React draws the shell instead of after it, and the data that page asks for
 * first (Home's feed, the all-projects rows), so that arrives alongside. Called before the first
 * render for a signed-in user.
 */
export function preloadFirstPage(pathname: string): void {
  for (const path of firstPageData(pathname)) prefetch(path);
  for (const { route } of matchRoutes(routes, pathname) ?? []) preloadElements(route.element);
}

function AppRoutes() {
  return useRoutes(routes);
}

/**
 * The routes in the browser. No page uses loaders, actions or other data-router APIs, so the
 * declarative router is enough (tests render the same `routes` in a memory router). It, too,
 * runs navigations as transitions.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
