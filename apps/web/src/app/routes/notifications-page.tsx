import Alert from '@mui/material/Alert';
import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { errorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import {
  MarkAllReadButton,
  NotificationsList,
} from '@/features/notifications/components/notifications-list';

/**
 * /notifications (the top bar's bell): the member's notifications, newest first (comments on
 * their photos, mentions, new photos and changes in the projects they follow or created), with
 * MARK ALL AS READ; opening one marks it read and goes to its photo or project.
 */
export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const [markAllError, setMarkAllError] = useState<unknown>(null);
  return (
    <>
      <PageHeader
        title="Notifications"
        actions={<MarkAllReadButton onError={(error) => setMarkAllError(error)} />}
      />
      {markAllError ? (
        <Alert severity="error" onClose={() => setMarkAllError(null)} sx={{ mb: 2 }}>
          {`Could not mark your notifications as read. ${errorMessage(markAllError)}`}
        </Alert>
      ) : null}
      <NotificationsList />
    </>
  );
}
