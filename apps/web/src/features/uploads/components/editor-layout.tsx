import Box from '@mui/material/Box';
import type { Upload } from '@sitelog/shared';
import type { ReactNode } from 'react';
import { UploadImage } from './upload-image';

/** The photo beside the editor: the image left of the fields on wide screens, above on phones. */
export function EditorLayout({ upload, children }: { upload: Upload; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
        gap: 3,
        alignItems: 'start',
        maxWidth: 1100,
      }}
    >
      <UploadImage upload={upload} maxHeight="60vh" />
      <Box sx={{ minWidth: 0 }}>{children}</Box>
    </Box>
  );
}
