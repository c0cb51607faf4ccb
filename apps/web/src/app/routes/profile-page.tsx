import Stack from '@mui/material/Stack';
import { PageHeader } from '@/components/page-header';
import { Section } from '@/components/section';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { LogoutButton } from '@/features/auth/components/logout-button';
import { NotificationSettingsSection } from '@/features/notifications/components/notification-settings-section';
import { ProjectGrid } from '@/features/projects/components/project-card';
import { UserUploadsSection } from '@/features/uploads/components/user-uploads-section';
import { useQueueLogoutCheck } from '@/features/uploads/queue/logout-check';
import { CurrentUserCard } from '@/features/users/components/current-user-card';
import { MemberProjectsSection } from '@/features/users/components/member-projects-section';
import { useCurrentUser } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * /profile: the signed-in user's card with LOGOUT (which asks first while photos wait on this
 * device, and clears the device's upload queue of the user), then their projects and latest uploads
 * (spec §2), then which notifications they get (and the projects they muted), then Change
 * password. Each later part is a section component from its own feature, added to the stack.
 */
export function ProfilePage() {
  useDocumentTitle('My profile');
  const user = useCurrentUser();
  const queueCheck = useQueueLogoutCheck();
  return (
    <>
      <PageHeader title="My profile" />
      <Stack spacing={4} sx={{ mb: 4 }}>
        <CurrentUserCard
          user={user}
          actions={<LogoutButton confirm={queueCheck.confirm} afterLogout={queueCheck.clear} />}
        />
        {queueCheck.dialog}
      </Stack>
      <MemberProjectsSection
        userId={user.id}
        title="My projects"
        renderProjects={(projects) => <ProjectGrid projects={projects} label="My projects" />}
      />
      <UserUploadsSection userId={user.id} title="Latest uploads" />
      <NotificationSettingsSection />
      <Section title="Change password">
        <ChangePasswordForm email={user.email} />
      </Section>
    </>
  );
}
