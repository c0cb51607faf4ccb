import { createBrowserRouter, type RouteObject } from 'react-router';
import { LoginPage } from '@/features/auth/routes/login-page';
import { NotificationsPage } from '@/features/notifications/routes/notifications-page';
import { ArchivedProjectsPage } from '@/features/projects/routes/archived-projects-page';
import { AllProjectsPage } from '@/features/projects/routes/all-projects-page';
import { MyProjectsPage } from '@/features/projects/routes/my-projects-page';
import { NewProjectPage } from '@/features/projects/routes/new-project-page';
import { ProjectPage } from '@/features/projects/routes/project-page';
import { UploaderChoosePage } from '@/features/projects/routes/uploader-choose-page';
import { ReportCreatorPage } from '@/features/reports/routes/report-creator-page';
import { ReportsPage } from '@/features/reports/routes/reports-page';
import { SearchPage } from '@/features/search/routes/search-page';
import { ProjectUploadsSection } from '@/features/uploads/components/project-uploads-section';
import { LatestUploadsPage } from '@/features/uploads/routes/latest-uploads-page';
import { UploadBatchEditPage } from '@/features/uploads/routes/upload-batch-edit-page';
import { UploadEditPage } from '@/features/uploads/routes/upload-edit-page';
import { UploadPage } from '@/features/uploads/routes/upload-page';
import { UploaderPage } from '@/features/uploads/routes/uploader-page';
import { AdminPage } from '@/features/users/routes/admin-page';
import { TeamsPage } from '@/features/users/routes/teams-page';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import { HomePage } from './pages/home-page';
import { MemberProfilePage } from './pages/member-profile-page';
import { NotFoundPage } from './pages/not-found-page';
import { ProfilePage } from './pages/profile-page';
import { RouteErrorPage } from './pages/route-error-page';

/**
 * The spec's routes (§2). To add a page: import it from features/<domain>/routes/ and add one
 * line to `memberRoutes` (any signed-in user) or `adminRoutes`.
 */
const memberRoutes: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: 'profile', element: <ProfilePage /> },
  { path: 'profile/:id', element: <MemberProfilePage /> },
  { path: 'teams', element: <TeamsPage /> },
  { path: 'projects', element: <MyProjectsPage /> },
  { path: 'projects/all', element: <AllProjectsPage /> },
  { path: 'projects/new', element: <NewProjectPage /> },
  {
    path: 'project/:id',
    element: (
      <ProjectPage
        uploads={(project) => (
          <ProjectUploadsSection projectId={project.id} count={project.uploadsCount} />
        )}
      />
    ),
  },
  { path: 'uploader/choose', element: <UploaderChoosePage /> },
  { path: 'uploads/latest', element: <LatestUploadsPage /> },
  { path: 'upload/:id', element: <UploadPage /> },
  { path: 'upload/:id/edit', element: <UploadEditPage /> },
  { path: 'upload/:id/edit/batch', element: <UploadBatchEditPage /> },
  { path: 'uploader/:id/create', element: <UploaderPage /> },
  { path: 'projects/archived', element: <ArchivedProjectsPage /> },
  { path: 'reports', element: <ReportsPage /> },
  { path: 'reports/create', element: <ReportCreatorPage /> },
  { path: 'notifications', element: <NotificationsPage /> },
  { path: 'search', element: <SearchPage /> },
];

const adminRoutes: RouteObject[] = [{ path: 'admin', element: <AdminPage /> }];

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      {
        path: 'login',
        element: (
          <RedirectIfSignedIn>
            <LoginPage />
          </RedirectIfSignedIn>
        ),
      },
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

export function createAppRouter() {
  return createBrowserRouter(routes);
}
