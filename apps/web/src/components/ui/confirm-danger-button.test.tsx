import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ConfirmDangerButton } from './confirm-danger-button.tsx';

describe('ConfirmDangerButton', () => {
  it('asks first, runs the action on confirm, and closes when the action says so', async () => {
    let close = (): void => undefined;
    let asked = 0;
    render(
      <ConfirmDangerButton
        ask={{
          title: '리뷰를 삭제할까요?',
          body: '삭제한 리뷰는 되돌릴 수 없어요.',
          confirmLabel: '삭제하기',
        }}
        onConfirm={(done) => {
          asked += 1;
          close = done;
        }}
      >
        삭제
      </ConfirmDangerButton>,
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '삭제' }));
    expect(screen.getByRole('alertdialog', { name: '리뷰를 삭제할까요?' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '삭제하기' }));
    expect(asked).toBe(1);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    act(() => close());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('takes its own way back, and never runs the action on it', async () => {
    let ran = false;
    render(
      <ConfirmDangerButton
        ask={{
          title: '수강을 취소할까요?',
          body: '다시 신청할 수 있어요.',
          confirmLabel: '수강 취소',
          cancelLabel: '계속 들을래요',
        }}
        variant="ghost"
        onConfirm={() => {
          ran = true;
        }}
      >
        수강 취소하기
      </ConfirmDangerButton>,
    );
    await userEvent.click(screen.getByRole('button', { name: '수강 취소하기' }));
    await userEvent.click(screen.getByRole('button', { name: '계속 들을래요' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(ran).toBe(false);
  });
});
