import Paper from '@mui/material/Paper';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useCreateProject } from '@/features/projects/api/create-project';
import { ProjectForm } from '@/features/projects/components/project-form';

/** /projects/new: the create-project form; success opens the new project (spec §2). */
export function NewProjectPage() {
  useDocumentTitle('New project');
  const navigate = useNavigate();
  const create = useCreateProject();
  return (
    <>
      <PageHeader
        title="New project"
        subtitle="Name the project and pick where it is; the description is optional."
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
        <ProjectForm
          label="New project"
          submitLabel="Create"
          pending={create.isPending}
          error={create.error}
          onSubmit={(project) =>
            create.mutate(
              { project },
              { onSuccess: (created) => void navigate(paths.project(created.id)) },
            )
          }
        />
      </Paper>
    </>
  );
}
