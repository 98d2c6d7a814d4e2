/**
 * Existing clients ask for the home page's lists with the page after a second '?'
 * (`/api/classes?target=live?page=0`, product-spec: the home page), so the query parser reads the target as
 * `live?page=0`. Such a target is read as its own value and what follows its '?' as more parameters; one given
 * properly (`&page=1`) wins over one hidden in the target.
 */
export function unfoldTarget(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query;
  const { target } = query as Record<string, unknown>;
  if (typeof target !== 'string') return query;
  const mark = target.indexOf('?');
  if (mark < 0) return query;
  const hidden = Object.fromEntries(new URLSearchParams(target.slice(mark + 1)));
  return { ...hidden, ...query, target: target.slice(0, mark) };
}
