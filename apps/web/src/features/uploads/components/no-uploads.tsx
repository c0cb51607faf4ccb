import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { paths } from '@/lib/paths';

/** The empty team feed, offering the next thing to do: upload. */
export function NoUploads({ description }: { description: string }) {
  return (
    <EmptyState
      icon={<PhotoLibraryOutlined />}
      message="No uploads yet"
      description={description}
      action={
        <Button
          component={RouterLink}
          to={paths.uploaderChoose}
          variant="contained"
          startIcon={<CloudUploadOutlined />}
        >
          Upload
        </Button>
      }
    />
  );
}
