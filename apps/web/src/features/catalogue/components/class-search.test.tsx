import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test-classes.ts';
import { ClassListPage } from './class-list-page.tsx';
import { highlightParts } from './highlight.tsx';
import { SearchBox } from './search-box.tsx';

afterEach(() => vi.unstubAllGlobals());

const ITEMS = [
  classItem(2, {
    name: '아이패드 드로잉 기초',
    instructor: '그림쟁이',
    rating_average: 4.5,
    review_count: 12,
  }),
  classItem(1, { name: '통기타 첫걸음', instructor: 'DevPark', student_count: 7 }),
];

function mockSearch() {
  return mockFetch([
    { url: '/api/categories', respond: () => ({ body: [{ id: 2, name: '드로잉' }] }) },
    {
      url: /^\/api\/classes\?/,
      respond: (request) => {
        const query = new URL(request.url).searchParams;
        if (query.get('target') === 'topten') return { body: envelope(ITEMS) };
        if (query.get('page') !== '0') return { body: envelope([]) };
        const q = query.get('q');
        const items = q === null ? ITEMS : ITEMS.filter((item) => item.name.includes(q));
        return { body: envelope(items) };
      },
    },
  ]);
}

function searchesSent(calls: Request[]): string[] {
  return calls
    .map((call) => new URL(call.url))
    .filter((url) => url.pathname === '/api/classes' && url.searchParams.get('page') === '0')
    .map((url) => url.search);
}

describe('highlightParts', () => {
  it.each([
    ['아이패드 드로잉 기초', '드로', ['아이패드 ', '[드로]', '잉 기초']],
    ['React 실전', 'react 실', ['[React]', ' ', '[실]', '전']],
    ['수채화', '없음', ['수채화']],
    ['a.b', '.', ['a', '[.]', 'b']],
  ])('%s with %s', (text, query, expected) => {
    const parts = highlightParts(text, query).map((part) => (part.match ? `[${part.text}]` : part.text));
    expect(parts).toEqual(expected);
  });
});

describe('the search results page', () => {
  it('asks the server with q, marks the matched words and shows ratings and students', async () => {
    const { calls } = mockSearch();
    renderWithProviders(<ClassListPage live={false} />, { route: '/list?q=드로', path: '/list' });
    expect(await screen.findByRole('heading', { level: 1, name: '‘드로’ 검색 결과' })).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: '‘드로’ 검색 결과' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(1));
    expect(searchesSent(calls)).toEqual([`?page=0&q=${encodeURIComponent('드로')}`]);
    const marks = within(grid).getAllByText('드로', { selector: 'mark' });
    expect(marks.map((mark) => mark.closest('h2')?.textContent)).toContain('아이패드 드로잉 기초');
    expect(within(grid).getByText('평점 4.5, 수강평 12개')).toBeInTheDocument();
  });

  it('searches from the box and sorts from the select, keeping both in the request', async () => {
    const user = userEvent.setup();
    const { calls } = mockSearch();
    renderWithProviders(<ClassListPage live={false} />, { route: '/list', path: '/list' });
    const grid = await screen.findByRole('list', { name: '전체 강의' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(2));
    await user.type(screen.getByRole('combobox', { name: '강의 검색' }), '통기타{Enter}');
    const results = await screen.findByRole('list', { name: '‘통기타’ 검색 결과' });
    await waitFor(() => expect(within(results).getAllByRole('listitem')).toHaveLength(1));
    expect(within(results).getByText('수강생 7명')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: '정렬' }), '평점 높은 순');
    await waitFor(() =>
      expect(searchesSent(calls)).toContain(`?page=0&q=${encodeURIComponent('통기타')}&sort=rating`),
    );
  });

  it('says so when nothing matched, and offers the popular classes', async () => {
    mockSearch();
    renderWithProviders(<ClassListPage live={false} />, { route: '/list?q=없는강의', path: '/list' });
    expect(
      await screen.findByText('‘없는강의’에 맞는 강의를 찾지 못했어요. 다른 검색어로 찾아보세요.'),
    ).toBeInTheDocument();
    const popular = await screen.findByRole('region', { name: '이런 인기 강의는 어때요?' });
    expect(await within(popular).findByText('통기타 첫걸음')).toBeInTheDocument();
  });
});

describe('SearchBox', () => {
  it('takes the focus when the header’s search button led here, and only then', () => {
    const { unmount } = renderWithProviders(<SearchBox value="" onSearch={() => {}} focus />);
    expect(screen.getByRole('combobox', { name: '강의 검색' })).toHaveFocus();
    unmount();
    renderWithProviders(<SearchBox value="" onSearch={() => {}} />);
    expect(screen.getByRole('combobox', { name: '강의 검색' })).not.toHaveFocus();
  });

  it("refuses more than five words before sending, with the server's words", async () => {
    const sent: string[] = [];
    renderWithProviders(<SearchBox value="" onSearch={(q) => sent.push(q)} />);
    const box = screen.getByRole<HTMLInputElement>('combobox', { name: '강의 검색' });
    await userEvent.type(box, '바 다 강 의 설 명{Enter}');
    expect(box.validationMessage).toBe('검색어는 단어 5개까지 입력할 수 있어요.');
    expect(sent).toEqual([]);
    await userEvent.type(box, '{Backspace}{Backspace}{Enter}');
    expect(sent).toEqual(['바 다 강 의 설']);
  });
});
