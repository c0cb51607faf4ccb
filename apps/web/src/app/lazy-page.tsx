import { use, type ComponentType } from 'react';

const preloaders: Array<() => Promise<void>> = [];

/**
 * A page (or a part of the shell) whose code is fetched the first time it is shown (its own
 * chunk in the build). It suspends to the nearest Suspense fallback while the chunk loads; once
 * loaded it renders at once, like any other component. A failed load is not cached, so opening
 * the page again retries.
 */
export type LazyPage = ComponentType & {
  /** Starts fetching the code without rendering (e.g. the first page's, before React starts). */
  preload: () => Promise<void>;
};

export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  const loaded: { Component: ComponentType | null } = { Component: null };
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (component) => {
        loaded.Component = component;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    ));
  preloaders.push(preload);

  function LazyPage() {
    if (!loaded.Component) use(preload());
    const Page = loaded.Component;
    return Page ? <Page /> : null;
  }
  return Object.assign(LazyPage, { preload });
}

/** Loads every page's code now (tests render pages without waiting for chunks). */
export const preloadAllPages = () => Promise.all(preloaders.map((preload) => preload()));
