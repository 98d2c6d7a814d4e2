import { useSearchParams } from 'react-router';
import { CLASS_SORTS, type ClassSort } from '@sea/contract/search';
import type { ClassSearch } from '../../lib/class-keys.ts';

export type ListSearch = ClassSearch & {
  setQuery: (q: string) => void;
  setSort: (sort: ClassSort | undefined) => void;
};

function isSort(value: string | null): value is ClassSort {
  return CLASS_SORTS.some((sort) => sort === value);
}

/** The list's search query and sort, kept in the address (`?q=드로잉&sort=rating`) like the category. */
export function useListSearch(): ListSearch {
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const sort = params.get('sort');
  function update(name: string, value: string | undefined) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (value === undefined || value === '') updated.delete(name);
        else updated.set(name, value);
        return updated;
      },
      { replace: true },
    );
  }
  return {
    ...(q === '' ? {} : { q }),
    ...(isSort(sort) ? { sort } : {}),
    setQuery: (next) => update('q', next.trim()),
    setSort: (next) => update('sort', next),
  };
}
