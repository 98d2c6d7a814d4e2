import { useEffect } from 'react';
import { useNotify } from '../../components/ui/use-notify.ts';
import { useCategories } from '../../lib/use-categories.ts';
import { CLASS_TEXTS } from './texts.ts';

/** The categories of a class form; a load failure is announced once ('failed to load category information'). */
export function useCategoriesNotice() {
  const query = useCategories();
  const notify = useNotify();
  const failed = query.isError;
  useEffect(() => {
    if (failed) notify(CLASS_TEXTS.form.categoriesFailed, { tone: 'error' });
  }, [failed, notify]);
  return { categories: query.data ?? [], failed, settled: !query.isPending };
}
