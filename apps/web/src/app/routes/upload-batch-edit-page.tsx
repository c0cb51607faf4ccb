import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import type { Upload } from '@sitelog/shared';
import { Link as RouterLink, useNavigate } from 'react-router';
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
import { useRouteId } from '@/lib/use-route-id';
import { afterUploadChange } from '../invalidations';

function BatchEditor({ upload }: { upload: Upload }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  useDocumentTitle('Photo uploaded');
  const projectId = upload.project.id;
  return (
    <>
      <PageHeader
        title="Photo uploaded"
        subtitle={
          <>
            Added to{' '}
            <Link component={RouterLink} to={paths.project(projectId)}>
              {upload.project.name}
            </Link>
            . Name it and describe it, or add the next one.
          </>
        }
      />
      {canEditUpload(user, upload) ? (
        <EditorLayout upload={upload}>
          <UploadEditor
            invalidate={afterUploadChange(upload.project.id, upload.creator.id)}
            key={upload.id}
            upload={upload}
            // Leaving the batch keeps what was typed: pending changes are saved first.
            renderActions={({ saveChanges, busy }) => (
              <>
                <Button
                  variant="contained"
                  startIcon={<CheckOutlined />}
                  disabled={busy}
                  onClick={() =>
                    void saveChanges().then((ok) => {
                      if (ok) void navigate(paths.project(projectId));
                    })
                  }
                >
                  Done
                </Button>
                <Button
                  variant="outlined"
                  startIcon={<AddPhotoAlternateOutlined />}
                  disabled={busy}
                  onClick={() =>
                    void saveChanges().then((ok) => {
                      if (ok) void navigate(paths.uploader(projectId));
                    })
                  }
                >
                  Add another one
                </Button>
                <DeleteUploadButton
                  invalidate={afterUploadChange(upload.project.id, upload.creator.id)}
                  upload={upload}
                  disabled={busy}
                />
              </>
            )}
          />
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

/**
 * /upload/{id}/edit/batch, right after an upload: the same editor plus DONE (to the project),
 * ADD ANOTHER ONE (the uploader again) and DELETE, for the creator only (spec §2).
 */
export function UploadBatchEditPage() {
  const id = useRouteId();
  return <UploadBoundary id={id}>{(upload) => <BatchEditor upload={upload} />}</UploadBoundary>;
}
