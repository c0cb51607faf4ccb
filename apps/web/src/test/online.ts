import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * What `navigator.onLine` says from now on, with the browser's `online` or `offline` event, as
 * when a phone loses or finds its signal. The setup's restoreAllMocks puts the browser back
 * online after each test.
 */
export function setBrowserOnline(online: boolean): void {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}
