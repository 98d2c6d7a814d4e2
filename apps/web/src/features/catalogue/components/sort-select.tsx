import type { ClassSort } from '@sea/contract/classes';
import { CATALOGUE_TEXTS } from '../texts.ts';
import styles from './sort-select.module.css';

const OPTIONS: { value: ClassSort | ''; label: string }[] = [
  { value: '', label: CATALOGUE_TEXTS.sortDefault },
  { value: 'newest', label: CATALOGUE_TEXTS.sortNewest },
  { value: 'students', label: CATALOGUE_TEXTS.sortStudents },
  { value: 'rating', label: CATALOGUE_TEXTS.sortRating },
];

export type SortSelectProps = {
  value: ClassSort | undefined;
  onChange: (sort: ClassSort | undefined) => void;
  /** With a search query the default order is 'best match', otherwise 'newest'. */
  searching: boolean;
};

/** The order of a class list: the default (best match when searching, else newest), students or rating. */
export function SortSelect({ value, onChange, searching }: SortSelectProps) {
  const options = searching ? OPTIONS : OPTIONS.filter((option) => option.value !== 'newest');
  return (
    <label className={styles.label}>
      <span>{CATALOGUE_TEXTS.sortLabel}</span>
      <select
        className={styles.select}
        value={value ?? ''}
        onChange={(event) => {
          const next = options.find((option) => option.value === event.target.value)?.value;
          onChange(next === '' || next === undefined ? undefined : next);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.value === '' && !searching ? CATALOGUE_TEXTS.sortNewest : option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
