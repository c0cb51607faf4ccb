import { ProjectGrid } from '@/features/projects/components/project-card';
import { UserUploadsSection } from '@/features/uploads/components/user-uploads-section';
import { MemberProfile } from '@/features/users/components/member-profile';
import { MemberProjectsSection } from '@/features/users/components/member-projects-section';

/**
 * /profile/{id}: the member's name (and whether they are deactivated), a "Projects (N)" and a
 * "Latest uploads (N)" section with the counts the server keeps (spec §2).
 */
export function MemberProfilePage() {
  return (
    <MemberProfile>
      {(profile) => (
        <>
          <MemberProjectsSection
            userId={profile.id}
            title={`Projects (${profile.projectsCount})`}
            renderProjects={(projects) => (
              <ProjectGrid projects={projects} label="Member projects" />
            )}
          />
          <UserUploadsSection
            userId={profile.id}
            title={`Latest uploads (${profile.uploadsCount})`}
          />
        </>
      )}
    </MemberProfile>
  );
}
