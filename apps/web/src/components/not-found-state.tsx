import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useDocumentTitle } from '@/lib/use-document-title';
import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

interface NotFoundStateProps {
  /** Page heading and document title, e.g. "Project not found". */
  title: string;
  message: string;
  description: string;
  /** Where the way out leads, and its label. */
  to: string;
  actionLabel: string;
  icon?: ReactNode;
}

/** A page whose thing does not exist: a heading, what happened, and one way on. */
export function NotFoundState({
  title,
  message,
  description,
  to,
  actionLabel,
  icon,
}: NotFoundStateProps) {
  useDocumentTitle(title);
  return (
    <>
      <PageHeader title={title} />
      <EmptyState
        icon={icon}
        message={message}
        description={description}
        action={
          <Button component={RouterLink} to={to} variant="contained">
            {actionLabel}
          </Button>
        }
      />
    </>
  );
}
