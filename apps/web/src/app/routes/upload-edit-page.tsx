import Stack from '@mui/material/Stack';
import Link from '@mui/material/Link';
import type { Upload } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/lib/paths';
import { useCurrentUser } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { canEditUpload, isInArchivedProject } from '@/features/uploads/can-edit-upload';
import { ArchivedReadOnly, OnlyCreatorCanEdit } from '@/features/uploads/components/creator-only';
import { DeleteUploadButton } from '@/features/uploads/components/delete-upload-button';
import { EditorLayout } from '@/features/uploads/components/editor-layout';
import { UploadBoundary } from '@/features/uploads/components/upload-boundary';
import { UploadEditor } from '@/features/uploads/components/upload-editor';
import { uploadDisplayName } from '@/features/uploads/components/upload-tiles';
import { useRouteId } from '@/lib/use-route-id';
import { afterUploadChange } from '../invalidations';

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
            <UploadEditor
              invalidate={afterUploadChange(upload.project.id, upload.creator.id)}
              key={upload.id}
              upload={upload}
            />
            <Stack direction="row">
              <DeleteUploadButton
                invalidate={afterUploadChange(upload.project.id, upload.creator.id)}
                upload={upload}
              />
            </Stack>
          </Stack>
        </EditorLayout>
      ) : (
        <EditorLayout upload={upload}>
          {/* Only to its creator: for anyone else the photo is not theirs to edit at all. */}
          {isInArchivedProject(upload) && user?.id === upload.creator.id ? (
            <ArchivedReadOnly upload={upload} />
          ) : (
            <OnlyCreatorCanEdit upload={upload} />
          )}
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
