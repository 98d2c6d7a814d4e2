import { Button } from '../../../components/ui/button.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { useLoggedIn } from '../../../lib/use-logged-in.ts';
import { AUTH_TEXTS } from '../texts.ts';
import { useLoginStart } from '../use-login-start.ts';
import { KakaoSymbol } from './kakao-symbol.tsx';
import styles from './login-page.module.css';

/** `/login`: Kakao login (or the server's dev provider), the unsupported 'other way', and a note when logged in. */
export function LoginPage() {
  const notify = useNotify();
  const loggedIn = useLoggedIn();
  const { ready, provider, start } = useLoginStart();

  return (
    <Page className={styles.page}>
      <div className={styles.card}>
        <h1 className={styles.title}>{AUTH_TEXTS.loginTitle}</h1>
        <p className={styles.lead}>{AUTH_TEXTS.loginLead}</p>
        {loggedIn && (
          <p className={styles.note} role="note">
            {AUTH_TEXTS.alreadyLoggedIn}
          </p>
        )}
        <div className={styles.actions}>
          <button type="button" className={styles.kakao} disabled={!ready} onClick={start}>
            <KakaoSymbol />
            {provider === 'dev' ? AUTH_TEXTS.devLogin : AUTH_TEXTS.kakaoLogin}
          </button>
          <Button variant="secondary" block onClick={() => notify(AUTH_TEXTS.otherLoginUnsupported)}>
            {AUTH_TEXTS.otherLogin}
          </Button>
        </div>
        {!ready && <p className={styles.hint}>{AUTH_TEXTS.preparingLogin}</p>}
        {provider === 'dev' && <p className={styles.hint}>{AUTH_TEXTS.devProviderNote}</p>}
      </div>
    </Page>
  );
}
