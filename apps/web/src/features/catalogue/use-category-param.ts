import { useSearchParams } from 'react-router';

/** The chosen category, kept in the address (`?category=3`) so back/forward and shared links keep it. */
export function useCategoryParam(): [number | null, (category: number | null) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('category'));
  const category = Number.isInteger(raw) && raw > 0 ? raw : null;
  function setCategory(next: number | null) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === null) updated.delete('category');
        else updated.set('category', String(next));
        return updated;
      },
      { replace: true },
    );
  }
  return [category, setCategory];
}
