import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import Button from '@mui/material/Button';
import { getSession } from '@/lib/session';
import { useLogout } from '../api/logout';

/**
 * LOGOUT: forgets the session here, tells the server, and the guard shows /login. The page may
 * ask first (`confirm`: photos still waiting on the device) and clear what the user left on the
 * device afterwards (`afterLogout`).
 */
export function LogoutButton({
  confirm,
  afterLogout,
}: {
  confirm?: () => Promise<boolean>;
  afterLogout?: (userId: number) => Promise<void>;
}) {
  const logout = useLogout();
  const onClick = async () => {
    if (confirm && !(await confirm())) return;
    const userId = getSession()?.user.id;
    logout();
    if (userId !== undefined) await afterLogout?.(userId).catch(() => undefined);
  };
  return (
    <Button variant="outlined" startIcon={<LogoutOutlined />} onClick={() => void onClick()}>
      Logout
    </Button>
  );
}
