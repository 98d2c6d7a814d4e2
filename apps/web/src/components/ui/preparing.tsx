import { Page } from './page.tsx';
import { EmptyState } from './empty-state.tsx';
import { UI_TEXTS } from './texts.ts';

/** Says plainly that a page is not built yet. */
export function Preparing({ title }: { title: string }) {
  return (
    <Page>
      <h1>{title}</h1>
      <EmptyState message={UI_TEXTS.preparing} />
    </Page>
  );
}
