import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { Category } from '@sea/contract/categories';
import { useDesktop } from '../../../lib/use-media-query.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import styles from './category-filter.module.css';

export type CategoryFilterProps = {
  categories: readonly Category[];
  /** The chosen category id; null is 'all'. */
  value: number | null;
  onChange: (category: number | null) => void;
};

/** 'All' plus one button per category on the desktop layout; a dropdown in the narrow column. */
export function CategoryFilter({ categories, value, onChange }: CategoryFilterProps) {
  const desktop = useDesktop();
  const options = [{ id: null, name: CATALOGUE_TEXTS.categoryAll }, ...categories];
  const current = options.find((option) => option.id === value) ?? options[0];

  if (desktop) {
    return (
      <div className={styles.buttons} role="group" aria-label={CATALOGUE_TEXTS.categoryFilterLabel}>
        {options.map((option) => (
          <button
            key={option.id ?? 'all'}
            type="button"
            className={styles.chip}
            aria-pressed={option.id === value}
            onClick={() => onChange(option.id)}
          >
            {option.name}
          </button>
        ))}
      </div>
    );
  }

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className={styles.trigger}
        aria-label={CATALOGUE_TEXTS.categoryMenuLabel(current?.name ?? '')}
      >
        <span>{current?.name}</span>
        <span aria-hidden="true">▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={styles.menu} align="start" sideOffset={4}>
          <DropdownMenu.RadioGroup
            value={String(value ?? 'all')}
            onValueChange={(next) => onChange(next === 'all' ? null : Number(next))}
          >
            {options.map((option) => (
              <DropdownMenu.RadioItem
                key={option.id ?? 'all'}
                value={String(option.id ?? 'all')}
                className={styles.item}
              >
                {option.name}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
