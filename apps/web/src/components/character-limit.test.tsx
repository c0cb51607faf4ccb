import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { LimitedTextField } from './character-limit';

function NameField({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <LimitedTextField
      label="Name"
      value={value}
      max={120}
      limitLabel="Name"
      helperText="What the team calls it"
      onChange={(event) => setValue(event.target.value)}
    />
  );
}

const type = (text: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: text } });

describe('LimitedTextField', () => {
  it('shows only the hint while the text is far from the limit', () => {
    render(<NameField />);
    type('a'.repeat(89));
    expect(screen.getByText('What the team calls it')).toBeInTheDocument();
    expect(screen.queryByText(/\/ 120/)).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'false');
  });

  it('counts near the limit, and tells screen readers what is left once typing pauses', async () => {
    render(<NameField />);
    type('a'.repeat(90));
    expect(screen.getByText('90 / 120')).toBeInTheDocument();
    expect(screen.getByText('What the team calls it')).toBeInTheDocument();
    // The count is part of the field's description, read with it on focus.
    const describedBy = screen
      .getByRole('textbox', { name: 'Name' })
      .getAttribute('aria-describedby');
    expect(document.getElementById(describedBy ?? '')).toHaveTextContent('90 / 120');
    // And a polite live region says it in words, once, after the pause.
    expect(await screen.findByText('30 characters left')).toHaveAttribute('aria-live', 'polite');
    type('a'.repeat(119));
    expect(await screen.findByText('1 character left')).toBeInTheDocument();
  });

  it('past the limit keeps the whole text, marks the field invalid and says the server message', async () => {
    render(<NameField />);
    const pasted = 'b'.repeat(125);
    type(pasted);
    const field = screen.getByRole('textbox', { name: 'Name' });
    // Not cut by maxLength: the user sees what they pasted and what is too much.
    expect(field).toHaveValue(pasted);
    expect(field).not.toHaveAttribute('maxlength');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Name must be at most 120 characters.')).toBeInTheDocument();
    expect(screen.getByText('125 / 120')).toBeInTheDocument();
    expect(await screen.findByText('5 characters too many')).toBeInTheDocument();
  });

  it('counts what the server stores: the text trimmed', () => {
    render(<NameField />);
    type(`  ${'c'.repeat(120)}   `);
    expect(screen.getByText('120 / 120')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'false');
  });
});
