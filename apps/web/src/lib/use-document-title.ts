import { useEffect } from 'react';

export const APP_NAME = 'Sitelog';

/** Sets the tab title to "<page> · Sitelog" while the page is shown. */
export function useDocumentTitle(page: string | null | undefined): void {
  useEffect(() => {
    document.title = page ? `${page} · ${APP_NAME}` : APP_NAME;
  }, [page]);
}
