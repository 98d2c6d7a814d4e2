import { NavLink } from 'react-router';
import type { ComponentType, SVGProps } from 'react';
import { CapIcon, HomeIcon, BookIcon, LiveIcon } from './icons.tsx';
import { BOTTOM_TABS, UI_TEXTS } from './texts.ts';
import styles from './bottom-nav.module.css';

const ICONS: Record<string, ComponentType<SVGProps<SVGSVGElement>>> = {
  '/live-list': LiveIcon,
  '/list': BookIcon,
  '/': HomeIcon,
  '/classroom': CapIcon,
};

/** The four tabs at the bottom; the current one is highlighted and marked `aria-current="page"`. */
export function BottomNav() {
  return (
    <nav className={styles.nav} aria-label={UI_TEXTS.bottomNavLabel}>
      <ul className={styles.list}>
        {BOTTOM_TABS.map((tab) => {
          const TabIcon = ICONS[tab.to] ?? HomeIcon;
          return (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end
                className={({ isActive }) => (isActive ? `${styles.tab} ${styles.active}` : styles.tab)}
              >
                <TabIcon />
                <span>{tab.label}</span>
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
