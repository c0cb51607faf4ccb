import type { Comment } from '@sitelog/shared';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { testQueryClient } from '@/test/query-client';
import { mockApi, type MockRequest, type MockResponse } from '@/test/mock-api';
import { CommentComposer } from './comment-composer';

const stored = (body: string): Comment => ({
  id: 3,
  uploadId: 7,
  author: { id: 2, firstname: 'Mia', lastname: 'Mason', active: true },
  body,
  createdAt: new Date().toISOString(),
  editedAt: null,
  mentions: [],
  canEdit: true,
  canDelete: true,
});

/** The composer of upload 7 against a server whose answers to POST wait until `answer()`. */
function renderComposer() {
  const waiting: (() => void)[] = [];
  const server = mockApi({
    'POST /api/upload/7/comments': (request: MockRequest) =>
      new Promise<MockResponse>((resolve) => {
        const { body } = request.body as { body: string };
        waiting.push(() => resolve({ status: 201, body: stored(body) }));
      }),
    'GET /api/upload/7/comments': { body: { comments: [], count: 0, next: null } },
  });
  render(
    <AppProviders queryClient={testQueryClient()}>
      <CommentComposer uploadId={7} />
    </AppProviders>,
  );
  return {
    server,
    field: screen.getByRole('combobox', { name: 'Comment' }),
    user: userEvent.setup(),
    answer: () => waiting.shift()?.(),
  };
}

describe('CommentComposer', () => {
  it('keeps the words typed while a comment was on its way, and empties only what was sent', async () => {
    const { server, field, user, answer } = renderComposer();
    await user.type(field, 'Looks good.');
    await user.click(screen.getByRole('button', { name: /Send/ }));
    await waitFor(() => expect(server.callsTo('POST /api/upload/7/comments')).toHaveLength(1));
    await user.type(field, ' Check the rebar too');
    answer();
    await waitFor(() => expect(field).toHaveValue('Check the rebar too'));
    expect(server.callsTo('POST /api/upload/7/comments')[0]?.body).toEqual({
      body: 'Looks good.',
    });
  });

  it('keeps the whole text when the sent part was changed meanwhile', async () => {
    const { server, field, user, answer } = renderComposer();
    await user.type(field, 'Looks good');
    await user.click(screen.getByRole('button', { name: /Send/ }));
    await waitFor(() => expect(server.callsTo('POST /api/upload/7/comments')).toHaveLength(1));
    await user.clear(field);
    await user.type(field, 'Actually, no');
    answer();
    await waitFor(() => expect(screen.getByRole('button', { name: /Send/ })).toBeEnabled());
    expect(field).toHaveValue('Actually, no');
  });

  it('empties the field when nothing was typed meanwhile', async () => {
    const { field, user, answer } = renderComposer();
    await user.type(field, 'Done');
    await user.click(screen.getByRole('button', { name: /Send/ }));
    await waitFor(() => expect(screen.getByRole('button', { name: /Send/ })).toBeDisabled());
    answer();
    await waitFor(() => expect(field).toHaveValue(''));
  });
});
