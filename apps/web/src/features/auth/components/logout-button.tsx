import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import Button from '@mui/material/Button';
import { useLogout } from '../api/logout';

/** LOGOUT: forgets the session here, tells the server, and the guard shows /login. */
export function LogoutButton() {
  const logout = useLogout();
  return (
    <Button variant="outlined" startIcon={<LogoutOutlined />} onClick={logout}>
      Logout
    </Button>
  );
}
