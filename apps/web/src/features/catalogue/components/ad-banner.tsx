import { Link } from 'react-router';
import { CATALOGUE_TEXTS } from '../texts.ts';
import styles from './ad-banner.module.css';

/** The home page's advertisement: the platform's own live lectures. */
export function AdBanner() {
  return (
    <section className={styles.ad} aria-label={CATALOGUE_TEXTS.adLabel}>
      <div className={styles.text}>
        <p className={styles.eyebrow}>{CATALOGUE_TEXTS.adEyebrow}</p>
        <h1 className={styles.title}>{CATALOGUE_TEXTS.adTitle}</h1>
        <p className={styles.body}>{CATALOGUE_TEXTS.adBody}</p>
        <Link to="/live-list" className={styles.cta}>
          {CATALOGUE_TEXTS.adCta}
        </Link>
      </div>
      <svg className={styles.art} viewBox="0 0 200 120" aria-hidden="true" focusable="false">
        <circle cx="150" cy="34" r="18" fill="#f4d58d" />
        <path d="M0 78 C30 62 60 94 100 78 S170 62 200 78 V120 H0Z" fill="#7fd3f7" opacity=".5" />
        <path d="M0 92 C30 78 60 106 100 92 S170 78 200 92 V120 H0Z" fill="#1d8fe1" opacity=".75" />
        <path d="M58 60 C70 48 92 48 102 60 C92 72 70 72 58 60Z" fill="#fff" />
        <path d="M102 60 L114 50 L112 60 L114 70Z" fill="#fff" />
        <circle cx="70" cy="58" r="2.5" fill="#0b1e3a" />
      </svg>
    </section>
  );
}
