import fs from 'node:fs';

/**
 * Renders a file of `deploy/` as `envsubst` does in docs/deploy.md: every `${NAME}` replaced by its value.
 * Throws on a placeholder without a value, so a file and its documented variables cannot drift apart.
 */
export function renderConfig(template: URL, values: Record<string, string>): string {
  const text = fs.readFileSync(template, 'utf8');
  const missing = new Set<string>();
  const rendered = text.replace(/\$\{([A-Z0-9_]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) missing.add(name);
    return value ?? '';
  });
  if (missing.size > 0) throw new Error(`${template.pathname}: no value for ${[...missing].join(', ')}`);
  return rendered;
}
