import type { ReactNode } from 'react';
import { EmptyState } from './empty-state.tsx';
import { Page } from './page.tsx';

/** A page that could not be shown: the message, announced, with the way on (`children`) below it. */
export function PageAlert({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <Page>
      <div role="alert">
        <EmptyState message={message}>{children}</EmptyState>
      </div>
    </Page>
  );
}
