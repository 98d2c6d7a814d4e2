import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { getAccessToken } from '../../../lib/auth-tokens.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useLogOutTo } from '../../../lib/use-log-out-to.ts';
import { useWithdraw } from '../api/withdraw.ts';
import { USER_TEXTS } from '../texts.ts';

/**
 * 'Withdraw' with its confirmation. Success: the notice, logged out, home. Without a token, or on a 401:
 * 'no permission'; otherwise 'withdrawal failed'. The confirmation closes either way.
 */
export function WithdrawButton() {
  const logOutTo = useLogOutTo();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const withdrawal = useWithdraw({
    onSuccess: async () => {
      setOpen(false);
      notify(USER_TEXTS.withdrawn, { tone: 'success' });
      await logOutTo(paths.home.to());
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
