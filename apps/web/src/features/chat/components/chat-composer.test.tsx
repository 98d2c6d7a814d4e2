import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_CHAT_LENGTH } from '@sea/contract/chat';
import { TOUCH_QUERY } from '../../../lib/use-media-query.ts';
import { ChatComposer } from './chat-composer.tsx';

const THUMBS = '👍🏽'; // one character, four UTF-16 units

describe('ChatComposer', () => {
  it('takes as many characters as the server does, counted as a person counts them', async () => {
    const onSend = vi.fn(() => true);
    render(<ChatComposer disabled={false} onSend={onSend} />);
    const input = screen.getByRole('textbox', { name: '보낼 메시지' });
    await userEvent.click(input);
    await userEvent.paste(THUMBS.repeat(10));
    expect(screen.getByTitle(`500자 중 10자`)).toHaveTextContent(`10/${MAX_CHAT_LENGTH}`);
    expect(screen.queryByText('메시지는 500자까지 보낼 수 있어요.')).toBeNull();
    await userEvent.paste(THUMBS.repeat(MAX_CHAT_LENGTH - 10));
    expect(input).toHaveValue(THUMBS.repeat(MAX_CHAT_LENGTH));
    // Said before sending: the limit is reached.
    expect(screen.getByText('메시지는 500자까지 보낼 수 있어요.')).toBeVisible();
    await userEvent.paste(`${THUMBS}가`);
    expect(input).toHaveValue(THUMBS.repeat(MAX_CHAT_LENGTH));
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith(THUMBS.repeat(MAX_CHAT_LENGTH));
  });

  it('never cuts a character in half', async () => {
    render(<ChatComposer disabled={false} onSend={() => true} />);
    const input = screen.getByRole('textbox', { name: '보낼 메시지' });
    await userEvent.click(input);
    await userEvent.paste(`${'가'.repeat(MAX_CHAT_LENGTH - 1)}👨‍👩‍👧‍👦👨‍👩‍👧‍👦`);
    expect(input).toHaveValue(`${'가'.repeat(MAX_CHAT_LENGTH - 1)}👨‍👩‍👧‍👦`);
  });

  describe('placeholder', () => {
    const original = window.matchMedia;
    afterEach(() => {
      window.matchMedia = original;
    });
    function screenIs(touch: boolean) {
      window.matchMedia = ((query: string) => ({
        ...original(query),
        matches: touch && query === TOUCH_QUERY,
      })) as typeof window.matchMedia;
    }

    it('mentions Shift+Enter where there is a keyboard', () => {
      screenIs(false);
      render(<ChatComposer disabled={false} onSend={() => true} />);
      expect(screen.getByRole('textbox')).toHaveAttribute(
        'placeholder',
        '메시지를 입력하세요 (Shift+Enter로 줄바꿈)',
      );
    });

    it('does not on a touch screen', () => {
      screenIs(true);
      render(<ChatComposer disabled={false} onSend={() => true} />);
      expect(screen.getByRole('textbox')).toHaveAttribute('placeholder', '메시지를 입력하세요');
    });
  });
});
