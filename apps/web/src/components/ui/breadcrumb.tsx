import { Link } from 'react-router';
import { UI_TEXTS } from './texts.ts';
import styles from './breadcrumb.module.css';

export type BreadcrumbItem = { label: string; to?: string };

/** A trail of links; the last item is the current page. Shown on desktop layouts only. */
export function Breadcrumb({ items }: { items: readonly BreadcrumbItem[] }) {
  return (
    <nav className={styles.breadcrumb} aria-label={UI_TEXTS.breadcrumbLabel}>
      <ol className={styles.list}>
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={`${item.label}-${index}`} className={styles.item}>
              {last || !item.to ? (
                <span aria-current={last ? 'page' : undefined}>{item.label}</span>
              ) : (
                <Link to={item.to}>{item.label}</Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
