import { invitationSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';

/**
 * GET /api/invitation/{token} (public): who the link is for and until when. Sent without the
 * stored session: the link is the credential, whoever is signed in on this browser.
 */
export const getInvitation = (token: string, signal?: AbortSignal) =>
  api.get(`/api/invitation/${encodeURIComponent(token)}`, invitationSchema, {
    signal,
    token: null,
  });

export const invitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: authKeys.invitation(token),
    queryFn: ({ signal }) => getInvitation(token, signal),
    // Read once: the link changes only by being used, which this page does itself.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** The link's details; `enabled: false` stops reading it (once it is being used). */
export const useInvitation = (token: string, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...invitationQueryOptions(token), enabled });
