/** Hands out URLs for stored media objects that work in `<img>` without a bearer header. */
export interface MediaLinks {
  /**
   * A URL serving `key` to the viewer's session: a signed `/media/…` URL on local disk (bound to
   * the session, so logout and deactivation revoke it), a presigned URL on S3. Stable for a while
   * so browsers can cache the image.
   */
  url(
    key: string,
    viewer: { sessionId: number },
    options?: { download?: { filename: string; contentType: string } },
  ): Promise<string>;
}
