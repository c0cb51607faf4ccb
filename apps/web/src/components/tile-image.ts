/**
 * How a grid tile's picture loads. Most tiles load theirs when they near the screen (`lazy`);
 * the first row, on screen when the page opens, loads at once (`eager`); the first tile also asks
 * ahead of other images (`first`): it is often the page's largest paint, which lazy loading held
 * back until layout (Lighthouse's LCP element on Home). Each grid does this for its own first
 * row: on Home, Bookmarks and Latest uploads both, so at most 12 previews of ~10–20 KB load at
 * once and two ask first.
 */
export type TileImageLoading = 'lazy' | 'eager' | 'first';

/** Tiles of a grid whose pictures load at once: the first row at the widest layout. */
export const EAGER_TILES = 6;

export const tileImageLoading = (index: number): TileImageLoading =>
  index === 0 ? 'first' : index < EAGER_TILES ? 'eager' : 'lazy';

/** The <img> attributes for it. */
export const tileImageProps = (loading: TileImageLoading) =>
  ({
    loading: loading === 'lazy' ? 'lazy' : 'eager',
    fetchPriority: loading === 'first' ? 'high' : 'auto',
  }) as const;
