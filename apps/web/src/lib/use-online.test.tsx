import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setBrowserOnline } from '@/test/online';
import { useOnline } from './use-online';

describe('useOnline', () => {
  it('follows the browser going offline and coming back', () => {
    const { result } = renderHook(() => useOnline());
    expect(result.current).toBe(true);
    setBrowserOnline(false);
    expect(result.current).toBe(false);
    setBrowserOnline(true);
    expect(result.current).toBe(true);
  });

  it('starts offline when the browser already is', () => {
    setBrowserOnline(false);
    const { result } = renderHook(() => useOnline());
    expect(result.current).toBe(false);
  });
});
