import Box from '@mui/material/Box';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

/*
 * The setup (src/test/setup.ts) removes Emotion's styles after each test and empties its cache.
 * The two tests run in order: the second starts with no style left over from the first, and its
 * own render still gets every style it asks for.
 */
const emotionStyles = () => document.head.querySelectorAll('style[data-emotion]').length;

describe('Emotion styles between tests', () => {
  it('are inserted by a render', () => {
    render(<Box sx={{ display: 'none' }}>Hidden by a style</Box>);
    expect(emotionStyles()).toBeGreaterThan(0);
    expect(screen.getByText('Hidden by a style')).not.toBeVisible();
  });

  it('are gone when the next test starts, and inserted again when it renders the same', () => {
    expect(emotionStyles()).toBe(0);
    render(<Box sx={{ display: 'none' }}>Hidden by a style</Box>);
    expect(screen.getByText('Hidden by a style')).not.toBeVisible();
  });
});
