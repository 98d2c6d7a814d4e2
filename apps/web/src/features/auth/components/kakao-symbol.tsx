import styles from './login-page.module.css';

/**
 * Kakao's speech-bubble symbol for the login button, drawn here (an ellipse with a tail at its lower left),
 * black on the button's Kakao yellow as Kakao's login button guide asks. Decorative: the label names the way.
 */
export function KakaoSymbol() {
  return (
    <svg
      className={styles.symbol}
      viewBox="0 0 18 18"
      width="18"
      height="18"
      aria-hidden="true"
      focusable="false"
      data-symbol="kakao"
    >
      <path
        fill="#000"
        d="M9 1.5C4.58 1.5 1 4.28 1 7.71c0 2.2 1.47 4.14 3.7 5.24l-.78 2.86a.3.3 0 0 0 .46.33l3.4-2.25c.4.04.8.06 1.22.06 4.42 0 8-2.78 8-6.24S13.42 1.5 9 1.5Z"
      />
    </svg>
  );
}
