import { useParams } from 'react-router';

const MAX_ID = 2_147_483_647;

/**
 * A record id written in an address (path segment or query parameter) as a positive whole
 * number, or null when it is not one: the page then says "not found" without asking the server.
 */
export function parseRouteId(raw: string | null | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const value = Number(raw);
  return value <= MAX_ID ? value : null;
}

/** The `:id` path segment as a positive whole number, or null when it is not one. */
export function useRouteId(): number | null {
  const { id } = useParams();
  return parseRouteId(id);
}
