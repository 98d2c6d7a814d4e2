import { Preparing } from '../../components/ui/preparing.tsx';
import { APP_TEXTS } from '../texts.ts';

/** Placeholder until the page is built: it says so plainly. */
export function Component() {
  return <Preparing title={APP_TEXTS.titles.editInfo} />;
}
