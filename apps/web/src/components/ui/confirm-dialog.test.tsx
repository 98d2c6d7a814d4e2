import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';

describe('ConfirmDialog', () => {
  it('shows title, body and both buttons; cancel closes, confirm calls back', async () => {
    const onOpenChange = vi.fn();
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog
        open
        onOpenChange={onOpenChange}
        title="강의를 삭제하시겠어요?"
        body="삭제한 강의는 복구할 수 없어요."
        confirmLabel="강의 삭제"
        onConfirm={onConfirm}
      />,
    );
    const dialog = screen.getByRole('alertdialog', { name: '강의를 삭제하시겠어요?' });
    expect(dialog).toHaveAccessibleDescription('삭제한 강의는 복구할 수 없어요.');
    await userEvent.click(screen.getByRole('button', { name: '강의 삭제' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: '취소' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('with no cancel label has one button and ignores Escape', async () => {
    const onOpenChange = vi.fn();
    render(
      <ConfirmDialog
        open
        onOpenChange={onOpenChange}
        title="강의가 개설되었어요!"
        body="개설한 강의를 보러 갈까요?"
        confirmLabel="강의실로 가기"
        cancelLabel={null}
        onConfirm={() => undefined}
      />,
    );
    expect(screen.getAllByRole('button')).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});
