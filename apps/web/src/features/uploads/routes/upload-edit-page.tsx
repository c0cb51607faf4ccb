import Stack from '@mui/material/Stack';
import Link from '@mui/material/Link';
import type { Upload } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/lib/paths';
import { useCurrentUser } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { canEditUpload } from '../can-edit-upload';
import { OnlyCreatorCanEdit } from '../components/creator-only';
import { DeleteUploadButton } from '../components/delete-upload-button';
import { EditorLayout } from '../components/editor-layout';
import { UploadBoundary } from '../components/upload-boundary';
import { UploadEditor } from '../components/upload-editor';
import { uploadDisplayName } from '../components/upload-tiles';
import { useRouteId } from './route-id';

function EditUpload({ upload }: { upload: Upload }) {
  const user = useCurrentUser();
  useDocumentTitle(`Edit ${uploadDisplayName(upload)}`);
  const canEdit = canEditUpload(user, upload);
  return (
    <>
      <PageHeader
        title="Edit photo"
        subtitle={
          <>
            <Link component={RouterLink} to={paths.upload(upload.id)}>
              {uploadDisplayName(upload)}
            </Link>{' '}
            in{' '}
            <Link component={RouterLink} to={paths.project(upload.project.id)}>
              {upload.project.name}
            </Link>
          </>
        }
      />
      {canEdit ? (
        <EditorLayout upload={upload}>
          <Stack spacing={3} sx={{ alignItems: 'stretch' }}>
            <UploadEditor key={upload.id} upload={upload} />
            <Stack direction="row">
              <DeleteUploadButton upload={upload} />
            </Stack>
          </Stack>
        </EditorLayout>
      ) : (
        <EditorLayout upload={upload}>
          <OnlyCreatorCanEdit upload={upload} />
        </EditorLayout>
      )}
    </>
  );
}

/** /upload/{id}/edit: name and description, SAVE after a change, DELETE (spec §2), creator only. */
export function UploadEditPage() {
  const id = useRouteId();
  return <UploadBoundary id={id}>{(upload) => <EditUpload upload={upload} />}</UploadBoundary>;
}
