/** What the HTTP client needs from one exchange, whichever browser API carried it. */
export type RawResponse = { status: number; contentType: string; text: string };

export type RawRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: BodyInit | null;
  signal?: AbortSignal | undefined;
  /** The request may outlive the page (fetch only). */
  keepalive?: boolean | undefined;
  /** Called with 0..1 while the body uploads; only XMLHttpRequest reports upload progress. */
  onUploadProgress?: ((fraction: number) => void) | undefined;
};

/** Sends one request. A network failure rejects with a TypeError, an abort with an AbortError. */
export function sendRaw(request: RawRequest): Promise<RawResponse> {
  return request.onUploadProgress ? sendWithXhr(request) : sendWithFetch(request);
}

async function sendWithFetch(request: RawRequest): Promise<RawResponse> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal ?? null,
    keepalive: request.keepalive ?? false,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

function sendWithXhr(request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    const onProgress = request.onUploadProgress;
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      });
      xhr.upload.addEventListener('load', () => onProgress(1));
    }
    xhr.addEventListener('load', () =>
      resolve({
        status: xhr.status,
        contentType: xhr.getResponseHeader('content-type') ?? '',
        text: xhr.responseText,
      }),
    );
    xhr.addEventListener('error', () => reject(new TypeError('Network request failed')));
    xhr.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.body as XMLHttpRequestBodyInit | null);
  });
}
