import { createdReportLinkSchema, type CreateReportLinkRequest } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';
import { refreshAfterRefusal, sendNow } from './refresh-after-refusal';

/**
 * POST /api/report/{id}/links `{ expiresInDays }`: a public link to the report's PDF (201; 409
 * until a PDF exists). The answer's `path` holds the token and is shown this once.
 */
export const createReportLink = (reportId: number, body: CreateReportLinkRequest) =>
  api.post(`/api/report/${reportId}/links`, createdReportLinkSchema, body);

/** Makes a public link; the report's list of links is refreshed. */
export const useCreateReportLink = (reportId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...sendNow,
    mutationFn: (body: CreateReportLinkRequest) => createReportLink(reportId, body),
    onError: (error) => refreshAfterRefusal(queryClient, reportId, error),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.links(reportId) }),
  });
};
