import type { ReactNode } from 'react';
import { EmptyState } from '@/components/empty-state';
import { Section } from '@/components/section';
import { useUserUploads } from '../api/get-user-uploads';
import { UploadsFeed } from './uploads-feed';

interface UserUploadsSectionProps {
  userId: number;
  /** The section heading, e.g. "Latest uploads (12)" on a profile. */
  title?: ReactNode;
}

/** A member's latest uploads, for /profile and /profile/{id}. */
export function UserUploadsSection({ userId, title = 'Latest uploads' }: UserUploadsSectionProps) {
  const query = useUserUploads(userId);
  return (
    <Section title={title}>
      <UploadsFeed
        query={query}
        label="Member uploads"
        showProject
        empty={<EmptyState message="No uploads yet" />}
      />
    </Section>
  );
}
