import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { getAccessToken } from '../../../lib/auth-tokens.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { logout } from '../../../lib/logout.ts';
import { useWithdraw } from '../api/withdraw.ts';
import { USER_TEXTS } from '../texts.ts';

/**
 * 'Withdraw' with its confirmation. Success: the notice, logged out, home. Without a token, or on a 401:
 * 'no permission'; otherwise 'withdrawal failed'. The confirmation closes either way.
 */
export function WithdrawButton() {
  const navigate = useNavigate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const withdrawal = useWithdraw({
    onSuccess: async () => {
      setOpen(false);
      notify(USER_TEXTS.withdrawn, { tone: 'success' });
      // Leave the private page first: logged out on it, the route guard would send us to /login.
      await navigate(paths.home.to(), { replace: true });
      logout();
    },
    onError: (error) => {
      setOpen(false);
      notify(isHttpError(error, 401) ? USER_TEXTS.noPermission : USER_TEXTS.withdrawFailed, {
        tone: 'error',
      });
    },
  });

  const confirm = () => {
    if (getAccessToken() === null) {
      setOpen(false);
      notify(USER_TEXTS.noPermission, { tone: 'error' });
      return;
    }
    withdrawal.mutate();
  };

  return (
    <>
      <Button variant="ghost" size="lg" onClick={() => setOpen(true)}>
        {USER_TEXTS.withdraw}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={USER_TEXTS.withdrawTitle}
        body={USER_TEXTS.withdrawBody}
        confirmLabel={USER_TEXTS.withdrawConfirm}
        confirmVariant="danger"
        busy={withdrawal.isPending}
        onConfirm={confirm}
      />
    </>
  );
}
