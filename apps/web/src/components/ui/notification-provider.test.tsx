import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotificationProvider } from './notification-provider.tsx';
import { useNotify } from './use-notify.ts';

function Trigger({ message, tone }: { message: string; tone?: 'info' | 'error' | 'success' }) {
  const notify = useNotify();
  return (
    <button type="button" onClick={() => notify(message, tone ? { tone } : undefined)}>
      go
    </button>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('notifications', () => {
  it('announces info politely and errors assertively, and can be dismissed', async () => {
    render(
      <NotificationProvider>
        <Trigger message="회원가입이 완료되었어요." />
        <Trigger message="권한이 없어요." tone="error" />
      </NotificationProvider>,
    );
    const [info, error] = screen.getAllByRole('button', { name: 'go' });
    await userEvent.click(info as HTMLElement);
    await userEvent.click(error as HTMLElement);
    expect(screen.getByRole('status')).toHaveTextContent('회원가입이 완료되었어요.');
    expect(screen.getByRole('alert')).toHaveTextContent('권한이 없어요.');
    await userEvent.click(screen.getAllByRole('button', { name: '알림 닫기' })[0] as HTMLElement);
    expect(screen.queryByText('회원가입이 완료되었어요.')).not.toBeInTheDocument();
  });

  it('disappears by itself after a few seconds', () => {
    vi.useFakeTimers();
    render(
      <NotificationProvider>
        <Trigger message="로그아웃했어요." />
      </NotificationProvider>,
    );
    act(() => screen.getByRole('button', { name: 'go' }).click());
    expect(screen.getByText('로그아웃했어요.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(4_100));
    expect(screen.queryByText('로그아웃했어요.')).not.toBeInTheDocument();
  });

  it('merges a message already shown: one notice, its time starting over; other messages still stack', () => {
    vi.useFakeTimers();
    render(
      <NotificationProvider>
        <Trigger message="올바르지 않은 파일이에요." tone="error" />
        <Trigger message="회원가입이 완료되었어요." />
      </NotificationProvider>,
    );
    const [invalid, signedUp] = screen.getAllByRole('button', { name: 'go' }) as HTMLElement[];
    act(() => {
      // Twice in one event, then again later.
      invalid?.click();
      invalid?.click();
    });
    act(() => vi.advanceTimersByTime(5_000));
    act(() => invalid?.click());
    act(() => signedUp?.click());
    expect(screen.getAllByText('올바르지 않은 파일이에요.')).toHaveLength(1);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('회원가입이 완료되었어요.');
    // 6 s from the last time it was asked for, not from the first.
    act(() => vi.advanceTimersByTime(5_000));
    expect(screen.getByText('올바르지 않은 파일이에요.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1_100));
    expect(screen.queryByText('올바르지 않은 파일이에요.')).not.toBeInTheDocument();
  });

  it('lets a success dismiss the errors before it, so a failed sign-up’s notice does not follow the user home', async () => {
    render(
      <NotificationProvider>
        <Trigger message="회원가입 중 오류가 발생했어요. 다시 시도해 주세요." tone="error" />
        <Trigger message="회원가입이 완료되었어요." tone="success" />
      </NotificationProvider>,
    );
    const [failed, done] = screen.getAllByRole('button', { name: 'go' });
    await userEvent.click(failed as HTMLElement);
    expect(screen.getByRole('alert')).toHaveTextContent('회원가입 중 오류가 발생했어요.');
    await userEvent.click(done as HTMLElement);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('회원가입이 완료되었어요.');
  });
});
