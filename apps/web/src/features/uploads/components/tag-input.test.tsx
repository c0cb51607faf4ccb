import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tagLimits } from '@sitelog/shared';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { testQueryClient } from '@/test/query-client';
import { mockApi } from '@/test/mock-api';
import { addTags, TagInput } from './tag-input';

/**
 * The field with its own state, as a form holds it; `changes` records every list it reports, and
 * `pending()` the last text it said is not a tag.
 */
function renderTagInput(initial: string[] = []) {
  const changes: string[][] = [];
  let pending = '';
  function Harness() {
    const [tags, setTags] = useState(initial);
    return (
      <TagInput
        value={tags}
        onChange={(next) => {
          changes.push(next);
          setTags(next);
        }}
        onPendingChange={(text) => (pending = text)}
      />
    );
  }
  render(
    <AppProviders queryClient={testQueryClient()}>
      <Harness />
    </AppProviders>,
  );
  const field = screen.getByRole('combobox', { name: 'Tags' });
  const chips = () =>
    [...document.querySelectorAll('.MuiAutocomplete-tag')].map((chip) => chip.textContent);
  return { field, changes, chips, pending: () => pending, user: userEvent.setup() };
}

describe('addTags', () => {
  it('normalises, merges duplicates, skips blanks, and says why it stops', () => {
    expect(addTags(['electrical'], [' Level  3 ', 'ELECTRICAL', '  ', 'Cafe\u0301'])).toEqual({
      tags: ['electrical', 'level 3', 'café'],
      error: null,
      merged: 'electrical',
      stoppedAt: null,
    });
    expect(addTags([], ['ok', 'x'.repeat(41), 'never'])).toEqual({
      tags: ['ok'],
      error: 'A tag must be at most 40 characters.',
      merged: null,
      stoppedAt: 1,
    });
    expect(addTags([], ['bad\u0007tag']).error).toBe('A tag must not contain control characters.');
    const full = Array.from({ length: tagLimits.perUpload }, (_, i) => `t${i}`);
    expect(addTags(full, ['t1', 'one more'])).toEqual({
      tags: full,
      error: 'A photo can have at most 20 tags.',
      merged: 't1',
      stoppedAt: 1,
    });
  });
});

describe('TagInput', () => {
  it('adds a tag on Enter and on a comma, as stored, and merges a duplicate with a note', async () => {
    mockApi({ 'GET /api/upload/tags': { body: [] } });
    const { field, chips, user } = renderTagInput(['defect']);
    await user.type(field, 'Level  3{Enter}');
    expect(chips()).toEqual(['defect', 'level 3']);
    expect(field).toHaveValue('');
    await user.type(field, 'Roof, north side,');
    expect(chips()).toEqual(['defect', 'level 3', 'roof', 'north side']);
    await user.type(field, 'DEFECT{Enter}');
    expect(chips()).toEqual(['defect', 'level 3', 'roof', 'north side']);
    expect(screen.getByText('“defect” is already a tag of this photo.')).toBeInTheDocument();
  });

  it('refuses a tag too long with the reason, keeping the text to fix', async () => {
    mockApi({ 'GET /api/upload/tags': { body: [] } });
    const { field, chips, user } = renderTagInput();
    await user.type(field, `${'y'.repeat(41)}{Enter}`);
    expect(chips()).toEqual([]);
    expect(field).toHaveValue('y'.repeat(41));
    expect(screen.getByText('A tag must be at most 40 characters.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('keeps only the refused part and those after it typed when text with commas is refused', async () => {
    mockApi({ 'GET /api/upload/tags': { body: [] } });
    const { field, chips, pending, user } = renderTagInput();
    const long = 'y'.repeat(41);
    await user.click(field);
    await user.paste(`Level 3, ${long}, wall, roof`);
    // The part before the refused one is a tag, and not typed again in the field.
    expect(chips()).toEqual(['level 3']);
    expect(field).toHaveValue(`${long}, wall, roof`);
    expect(screen.getByText('A tag must be at most 40 characters.')).toBeInTheDocument();
    expect(pending()).toBe(`${long}, wall, roof`);
    // Shortened by one letter: it and the next become tags; the last part stays typed.
    await user.keyboard('{Home}{Delete}');
    expect(chips()).toEqual(['level 3', 'y'.repeat(40), 'wall']);
    expect(field).toHaveValue('roof');
    await user.keyboard('{Enter}');
    expect(chips()).toEqual(['level 3', 'y'.repeat(40), 'wall', 'roof']);
    expect(pending()).toBe('');
  });

  /** A full photo's field holding "slab, beam" (refused at the limit), then two tags removed. */
  async function commasLeftTyped() {
    mockApi({ 'GET /api/upload/tags': { body: [] } });
    const full = Array.from({ length: tagLimits.perUpload }, (_, i) => `tag ${i}`);
    const rendered = renderTagInput(full);
    const { field, pending, user } = rendered;
    await user.click(field);
    await user.paste('slab, beam');
    expect(field).toHaveValue('slab, beam');
    expect(pending()).toBe('slab, beam');
    for (const tag of ['tag 0', 'tag 1'])
      await user.click(within(screen.getByRole('button', { name: tag })).getByTestId('CancelIcon'));
    await user.click(field);
    return rendered;
  }

  it('adds a tag between each two commas on Enter, never one tag holding a comma', async () => {
    const { field, chips, pending, user } = await commasLeftTyped();
    await user.keyboard('{Enter}');
    expect(chips().slice(-2)).toEqual(['slab', 'beam']);
    expect(field).toHaveValue('');
    expect(pending()).toBe('');
  });

  it('adds a tag between each two commas when the field is left', async () => {
    const { field, chips, changes, user } = await commasLeftTyped();
    await user.tab();
    expect(changes.at(-1)?.slice(-2)).toEqual(['slab', 'beam']);
    expect(chips()).not.toContain('slab, beam');
    expect(field).toHaveValue('');
  });

  it('counts towards the limit and refuses the 21st tag', async () => {
    mockApi({ 'GET /api/upload/tags': { body: [] } });
    const full = Array.from({ length: tagLimits.perUpload }, (_, i) => `tag ${i}`);
    const { field, chips, user } = renderTagInput(full);
    expect(screen.getByText('20 of 20 tags: remove one to add another.')).toBeInTheDocument();
    await user.type(field, 'one more{Enter}');
    expect(chips()).toHaveLength(20);
    expect(screen.getByText('A photo can have at most 20 tags.')).toBeInTheDocument();
  });

  it('keeps text typed without Enter when the field is left', async () => {
    mockApi({ 'GET /api/upload/tags': { body: [] } });
    const { field, changes, user } = renderTagInput();
    await user.type(field, 'Concrete');
    await user.tab();
    expect(changes.at(-1)).toEqual(['concrete']);
  });

  it('suggests existing tags starting with what was typed, most used first, after a pause', async () => {
    const server = mockApi({
      'GET /api/upload/tags': (request) => {
        const q = new URL(request.url, 'http://localhost').searchParams.get('q');
        return {
          body:
            q === 'le'
              ? [
                  { tag: 'level 3', count: 12 },
                  { tag: 'level 2', count: 5 },
                  { tag: 'lead paint', count: 1 },
                ]
              : [],
        };
      },
    });
    const { field, chips, user } = renderTagInput(['level 2']);
    await user.type(field, 'LE');
    const listbox = await screen.findByRole('listbox');
    // Already on the photo: not offered again.
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['level 3 12 photos', 'lead paint 1 photo']);
    // One request for the pause, not one per key.
    await waitFor(() =>
      expect(
        server
          .callsTo('GET /api/upload/tags')
          .map((c) => new URL(c.url, 'http://localhost').searchParams.get('q')),
      ).toEqual(['', 'le']),
    );
    await user.keyboard('{ArrowDown}{Enter}');
    expect(chips()).toEqual(['level 2', 'level 3']);
  });

  it('removes the last tag with Backspace and one tag with its delete button', async () => {
    mockApi({ 'GET /api/upload/tags': { body: [] } });
    const { field, chips, user } = renderTagInput(['a', 'b', 'c']);
    await user.click(field);
    await user.keyboard('{Backspace}');
    expect(chips()).toEqual(['a', 'b']);
    const chip = screen.getByRole('button', { name: 'a' });
    await user.click(within(chip).getByTestId('CancelIcon'));
    expect(chips()).toEqual(['b']);
  });
});
