import { useParams } from 'react-router';

/** The `:id` path segment as a positive whole number, or null when it is not one. */
export function useRouteId(): number | null {
  const { id } = useParams();
  if (!id || !/^[1-9]\d{0,9}$/.test(id)) return null;
  const value = Number(id);
  return value <= 2_147_483_647 ? value : null;
}
