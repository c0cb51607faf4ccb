import { vi } from 'vitest';

type Handler = ((event: ProgressEvent) => void) | null;

/**
 * A stand-in for XMLHttpRequest (jsdom cannot upload): records what the app sends and lets the
 * test drive progress, the answer, or a network failure. Only the browser API is faked.
 */
export class FakeXhr {
  static instances: FakeXhr[] = [];

  method = '';
  url = '';
  headers = new Map<string, string>();
  body: FormData | null = null;
  responseType = '';
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: Handler } = { onprogress: null };
  onload: Handler = null;
  onerror: Handler = null;
  ontimeout: Handler = null;
  onabort: Handler = null;

  constructor() {
    FakeXhr.instances.push(this);
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers.set(name.toLowerCase(), value);
  }

  send(body: FormData) {
    this.body = body;
  }

  abort() {
    this.aborted = true;
    this.onabort?.(new ProgressEvent('abort'));
  }

  /** The browser reports `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.(
      new ProgressEvent('progress', { loaded, total, lengthComputable: true }),
    );
  }

  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.(new ProgressEvent('load'));
  }

  failNetwork() {
    this.onerror?.(new ProgressEvent('error'));
  }

  /** The multipart parts in the order they were appended. */
  parts(): Array<[string, FormDataEntryValue]> {
    return this.body ? [...this.body.entries()] : [];
  }
}

export function installFakeXhr() {
  FakeXhr.instances = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return {
    requests: FakeXhr.instances,
    last(): FakeXhr {
      const xhr = FakeXhr.instances.at(-1);
      if (!xhr) throw new Error('no upload was sent');
      return xhr;
    },
  };
}
