import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Suggestions } from '@sea/contract/suggestions';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { SearchBox } from './search-box.tsx';

const PYTHON: Suggestions = {
  classes: [
    { id: 4, name: '파이썬 기초', teacher_nickname: '코딩하는곰', category: '프로그래밍' },
    { id: 5, name: 'Python 데이터 분석', teacher_nickname: '코딩하는곰', category: '프로그래밍' },
  ],
  instructors: [{ id: 'u-1', nickname: '파이썬마스터', profile_image_path: null }],
};

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

/** The suggest route answering PYTHON for every text, later for '파' (a slow answer); records the aborts. */
function mockSuggest() {
  const aborted: string[] = [];
  const mock = mockFetch([
    {
      url: /^\/api\/search\/suggest\?/,
      respond: (request) => {
        const q = new URL(request.url).searchParams.get('q') ?? '';
        request.signal.addEventListener('abort', () => aborted.push(q));
        const answer = { body: envelope(PYTHON) };
        return q === '파' ? new Promise((resolve) => setTimeout(() => resolve(answer), 1000)) : answer;
      },
    },
  ]);
  const asked = () =>
    mock.calls
      .map((call) => new URL(call.url))
      .filter((url) => url.pathname === '/api/search/suggest')
      .map((url) => url.searchParams.get('q'));
  return { asked, aborted };
}

describe('SearchBox suggestions', () => {
  it('asks once typing pauses, not at every key', async () => {
    const { asked } = mockSuggest();
    renderWithProviders(<SearchBox value="" onSearch={() => {}} />);
    await userEvent.type(screen.getByRole('combobox', { name: '강의 검색' }), '파이썬');
    expect(await screen.findByRole('option', { name: '파이썬 기초 · 코딩하는곰' })).toBeInTheDocument();
    expect(asked()).toEqual(['파이썬']);
  });

  it('aborts the request of a text the visitor has typed past', async () => {
    const { asked, aborted } = mockSuggest();
    renderWithProviders(<SearchBox value="" onSearch={() => {}} />);
    const box = screen.getByRole('combobox', { name: '강의 검색' });
    await userEvent.type(box, '파');
    await waitFor(() => expect(asked()).toEqual(['파']));
    await userEvent.type(box, '이썬');
    await screen.findByRole('option', { name: '파이썬 기초 · 코딩하는곰' });
    expect(aborted).toEqual(['파']);
    expect(asked()).toEqual(['파', '파이썬']);
  });

  it('moves through the list with the arrow keys and opens the chosen class with Enter', async () => {
    mockSuggest();
    const { router } = renderWithProviders(<SearchBox value="" onSearch={() => {}} />);
    const box = screen.getByRole('combobox', { name: '강의 검색' });
    await userEvent.type(box, '파이썬');
    await screen.findByRole('listbox', { name: '검색어 추천' });
    expect(box).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    const second = screen.getByRole('option', { name: 'Python 데이터 분석 · 코딩하는곰' });
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', second.id);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('option', { name: '파이썬마스터 · 강사' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(router.state.location.pathname).toBe('/lecture/info/5');
    await userEvent.keyboard('{Escape}');
  });

  it('remembers searches and offers the recent ones while the box is empty', async () => {
    mockSuggest();
    const onSearch = vi.fn();
    renderWithProviders(<SearchBox value="" onSearch={onSearch} />);
    const box = screen.getByRole('combobox', { name: '강의 검색' });
    await userEvent.type(box, '수채화{Enter}');
    expect(onSearch).toHaveBeenCalledWith('수채화');
    await userEvent.clear(box);
    const recent = await screen.findByRole('listbox', { name: '최근 검색어' });
    expect(recent).toHaveTextContent('수채화');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(onSearch).toHaveBeenLastCalledWith('수채화');
    expect(JSON.parse(localStorage.getItem('sea.recent-searches') ?? '[]')).toEqual(['수채화']);
  });
});
