import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { testQueryClient } from '@/test/query-client';
import { mockApi } from '@/test/mock-api';
import { MentionField } from './mention-field';

const annLee = { id: 6, firstname: 'Ann', lastname: 'Lee' };

/** The field with its own text, as the composer holds it. */
function renderField() {
  function Harness() {
    const [text, setText] = useState('');
    return (
      <MentionField label="Comment" value={text} onChange={setText} onSubmit={() => undefined} />
    );
  }
  render(
    <AppProviders queryClient={testQueryClient()}>
      <Harness />
    </AppProviders>,
  );
  return { field: screen.getByRole('combobox', { name: 'Comment' }), user: userEvent.setup() };
}

describe('MentionField', () => {
  it('never completes with a list answered for an earlier query: Enter after "@Ann Lee said" keeps "said"', async () => {
    // The server's rule: names starting with q. The list for "ann" stays while "ann lee said"
    // waits for the pause before it is asked.
    mockApi({
      'GET /api/user/mentionable': (request) => {
        const q = new URL(request.url, 'http://localhost').searchParams.get('q') ?? '';
        return { body: 'ann lee'.startsWith(q.toLowerCase()) ? [annLee] : [] };
      },
    });
    const { field, user } = renderField();
    await user.type(field, '@Ann');
    expect(await screen.findByRole('option', { name: /Ann Lee/ })).toBeInTheDocument();
    // Typed on at once, before the next lookup: the list no longer fits and closes.
    await user.type(field, ' Lee said');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(field).toHaveValue('@Ann Lee said\n');
  });

  it('keeps offering a member while the name typed still fits them', async () => {
    mockApi({ 'GET /api/user/mentionable': { body: [annLee] } });
    const { field, user } = renderField();
    await user.type(field, 'Ask @an');
    await screen.findByRole('option', { name: /Ann Lee/ });
    await user.type(field, 'n l');
    expect(screen.getByRole('option', { name: /Ann Lee/ })).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(field).toHaveValue('Ask @Ann Lee ');
  });
});
