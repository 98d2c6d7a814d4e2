/**
 * `Content-Disposition: attachment` with an ASCII `filename` and the real (Korean) name as an RFC 5987
 * `filename*` in UTF-8, which browsers prefer.
 */
export function attachment(asciiName: string, name: string): string {
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encoded}`;
}
