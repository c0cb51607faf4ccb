/** Long edge of the preview rendition (the server's PREVIEW_MAX_EDGE). */
const PREVIEW_MAX_EDGE = 480;

/** The preview's size, from the display image's: scaled to a long edge of 480, never up. */
export function previewSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, PREVIEW_MAX_EDGE / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}
