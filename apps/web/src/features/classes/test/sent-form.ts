import { expect } from 'vitest';
import type { Mock } from 'vitest';

/** The multipart body the app handed to `fetch` for a request to `path` (mockFetch's spy). */
export function sentForm(spy: Mock, path: string, method: string): FormData {
  for (const [input, init] of spy.mock.calls as Array<[RequestInfo | URL, RequestInit | undefined]>) {
    const url = String(input instanceof Request ? input.url : input);
    if (new URL(url, 'http://localhost').pathname === path && init?.method === method) {
      if (init.body instanceof FormData) return init.body;
    }
  }
  throw new Error(`No multipart ${method} ${path} was sent`);
}

/** The JSON part of a multipart body. */
export async function jsonPart(form: FormData, name: string): Promise<unknown> {
  const part = form.get(name);
  if (!(part instanceof Blob)) throw new Error(`No part ${name}`);
  expect(part.type).toBe('application/json');
  return JSON.parse(await part.text()) as unknown;
}
