import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { takeReturnTo } from '../../../lib/return-to.ts';
import { completeLogin } from '../complete-login.ts';
import { AUTH_TEXTS } from '../texts.ts';
import styles from './callback-page.module.css';

const EMOJIS = ['🐳', '🐠', '🐙', '🦀', '🐢'];

/**
 * `/oauth/kakao/callback`: checks `state`, exchanges the code, then: registered → tokens stored, go back to
 * where the visitor was going (or /); not registered → /sign-info with both tokens in navigation state;
 * anything else → /login.
 */
export function CallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const code = params.get('code');
  const state = params.get('state');

  useEffect(() => {
    if (!code) {
      navigate('/login', { replace: true });
      return undefined;
    }
    let current = true;
    completeLogin(code, state).then(
      (outcome) => {
        if (!current) return;
        if (outcome.kind === 'state-mismatch') {
          notify(AUTH_TEXTS.stateMismatch, { tone: 'error' });
          navigate('/login', { replace: true });
        } else if (outcome.kind === 'registered') {
          setTokens(outcome.tokens);
          navigate(takeReturnTo(), { replace: true });
        } else {
          navigate('/sign-info', { replace: true, state: outcome.tokens });
        }
      },
      (error: unknown) => {
        if (!current) return;
        console.error('Login callback failed', error);
        navigate('/login', { replace: true });
      },
    );
    return () => {
      current = false;
    };
  }, [code, state, navigate, notify]);

  return (
    <div className={styles.callback} role="status">
      <div className={styles.emojis} aria-hidden="true">
        {EMOJIS.map((emoji, index) => (
          <span key={emoji} className={styles.emoji} style={{ animationDelay: `${index * 120}ms` }}>
            {emoji}
          </span>
        ))}
      </div>
      <p className={styles.text}>{AUTH_TEXTS.moving}</p>
    </div>
  );
}
