import { loginResponseSchema, type AcceptInvitationRequest } from '@sitelog/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { getToken, startSession } from '@/lib/session';
import { logout } from './logout';

/**
 * POST /api/invitation/{token}/accept (public): sets the invited member's password and signs
 * them in (the answer of a login). Sent without a token, as a login is.
 */
export const acceptInvitation = (token: string, body: AcceptInvitationRequest) =>
  api.post(`/api/invitation/${encodeURIComponent(token)}/accept`, loginResponseSchema, body, {
    token: null,
  });

/** Sets the password and stores the new session; the caller then moves on to Home. */
export const useAcceptInvitation = (token: string) =>
  useMutation({
    mutationFn: (body: AcceptInvitationRequest) => acceptInvitation(token, body),
    onSuccess: (response) => {
      const previousToken = getToken();
      startSession(response);
      // Someone else was signed in on this browser: close their session, as a login does.
      if (previousToken && previousToken !== response.token)
        logout(previousToken).catch(() => undefined);
    },
  });
