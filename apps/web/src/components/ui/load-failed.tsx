import { Button } from './button.tsx';
import { EmptyState } from './empty-state.tsx';
import { UI_TEXTS } from './texts.ts';

/**
 * What a list or a page shows when its request failed: the message, announced, with '다시 시도'. Never an
 * empty state, which would tell a student with nine classes that they have none.
 */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert">
      <EmptyState message={message}>
        <RetryButton onRetry={onRetry} />
      </EmptyState>
    </div>
  );
}

/** '다시 시도': asks again for what failed to load. */
export function RetryButton({ onRetry }: { onRetry: () => void }) {
  return (
    <Button variant="secondary" size="sm" onClick={onRetry}>
      {UI_TEXTS.retry}
    </Button>
  );
}
