import { useRef } from 'react';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { getAccessToken } from '../../../lib/auth-tokens.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useLogOutTo } from '../../../lib/use-log-out-to.ts';
import { useWithdraw } from '../api/withdraw.ts';
import { USER_TEXTS } from '../texts.ts';

const WITHDRAW_ASK = {
  title: USER_TEXTS.withdrawTitle,
  body: USER_TEXTS.withdrawBody,
  confirmLabel: USER_TEXTS.withdrawConfirm,
};

/**
 * 'Withdraw' with its confirmation. Success: the notice, logged out, home. Without a token, or on a 401:
 * 'no permission'; otherwise 'withdrawal failed'. The confirmation closes either way.
 */
export function WithdrawButton() {
  const logOutTo = useLogOutTo();
  const notify = useNotify();
  // The callbacks live on the mutation (see useWithdraw); they close the confirmation the button opened.
  const close = useRef<() => void>(() => undefined);
  const withdrawal = useWithdraw({
    onSuccess: async () => {
      close.current();
      notify(USER_TEXTS.withdrawn, { tone: 'success' });
      await logOutTo(paths.home.to());
    },
    onError: (error) => {
      close.current();
      notify(isHttpError(error, 401) ? USER_TEXTS.noPermission : USER_TEXTS.withdrawFailed, {
        tone: 'error',
      });
    },
  });

  const confirm = (closeDialog: () => void) => {
    close.current = closeDialog;
    if (getAccessToken() === null) {
      closeDialog();
      notify(USER_TEXTS.noPermission, { tone: 'error' });
      return;
    }
    withdrawal.mutate();
  };

  return (
    <ConfirmDangerButton
      ask={WITHDRAW_ASK}
      variant="ghost"
      size="lg"
      busy={withdrawal.isPending}
      onConfirm={confirm}
    >
      {USER_TEXTS.withdraw}
    </ConfirmDangerButton>
  );
}
