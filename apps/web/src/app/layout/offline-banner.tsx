import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import Alert from '@mui/material/Alert';

/**
 * Shown at the top of every signed-in page while offline (AppLayout): what is on screen was
 * loaded earlier. It sits in the page's flow, so the content moves down and nothing is covered.
 */
export function OfflineBanner() {
  return (
    <Alert
      role="status"
      severity="warning"
      icon={<CloudOffOutlined fontSize="inherit" />}
      sx={{ mb: { xs: 2, sm: 3 } }}
    >
      You are offline. What you see was loaded earlier and may be out of date.
    </Alert>
  );
}
