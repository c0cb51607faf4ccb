import type { InvitationLink } from '@sitelog/shared';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvitationLinkDialog } from './invitation-link-dialog';

const link: InvitationLink = {
  user: {
    id: 15,
    firstname: 'Aisha',
    lastname: 'Khan',
    email: 'aisha@example.com',
    isAdmin: false,
    isActive: true,
    invitePending: true,
    inviteExpiresAt: '2026-12-03T14:05:00.000Z',
  },
  path: '/invite/q3Jz8xVb2nLk5RtYw7PaS0dFgHj4KmNc6UeXo1iA9sB',
  expiresAt: '2026-12-03T14:05:00.000Z',
};
const url = `${window.location.origin}${link.path}`;

/** The browser's clipboard as a test wants it (none by default in jsdom). */
function setClipboard(value: unknown) {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
}
/** jsdom has no `execCommand`; the dialog's fallback calls it. */
function setExecCommand(result: boolean | Error) {
  const exec = vi.fn(() => {
    if (result instanceof Error) throw result;
    return result;
  });
  Object.defineProperty(document, 'execCommand', { value: exec, configurable: true });
  return exec;
}

afterEach(() => {
  setClipboard(undefined);
  Object.defineProperty(document, 'execCommand', { value: undefined, configurable: true });
});

describe('InvitationLinkDialog', () => {
  it('copies with the Clipboard API', async () => {
    const writeText = vi.fn(async () => undefined);
    setClipboard({ writeText });
    render(<InvitationLinkDialog link={link} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Link copied.'));
    expect(writeText).toHaveBeenCalledWith(url);
  });

  it('falls back to the copy command where the Clipboard API is missing', async () => {
    const exec = setExecCommand(true);
    render(<InvitationLinkDialog link={link} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Link copied.'));
    expect(exec).toHaveBeenCalledWith('copy');
  });

  it('selects the link and says how to copy it when nothing can write the clipboard', async () => {
    setClipboard({ writeText: vi.fn(async () => Promise.reject(new Error('NotAllowedError'))) });
    setExecCommand(false);
    render(<InvitationLinkDialog link={link} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
      ),
    );
    const field = screen.getByLabelText<HTMLTextAreaElement>('Invitation link');
    expect(field).toHaveFocus();
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, url.length]);
  });

  it('stays open on a click beside it, so the link is not lost; Escape closes it', async () => {
    const onClose = vi.fn();
    render(<InvitationLinkDialog link={link} onClose={onClose} />);
    // The area around the dialog's paper takes the click (over the backdrop).
    const beside = document.querySelector('.MuiDialog-container')!;
    fireEvent.mouseDown(beside);
    fireEvent.click(beside);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with DONE and forgets the copy state for the next link', async () => {
    setExecCommand(true);
    const onClose = vi.fn();
    const { rerender } = render(<InvitationLinkDialog link={link} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Link copied.'));
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(<InvitationLinkDialog link={null} onClose={onClose} />);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const next = { ...link, path: '/invite/another-token-of-forty-three-characters-x' };
    rerender(<InvitationLinkDialog link={next} onClose={onClose} />);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('');
    expect(screen.getByLabelText('Invitation link')).toHaveValue(
      `${window.location.origin}${next.path}`,
    );
  });
});
