import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../testing/fetch-mock.ts';
import { renderRoutes } from '../testing/render.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new Error('render failed');
}

/** The app's frame and error boundaries (as in `routes.tsx`) around pages that fail. */
const table: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: () => null,
    ErrorBoundary: RouteError,
    children: [
      {
        ErrorBoundary: RouteError,
        children: [
          { path: '/', element: <p>home page</p> },
          { path: '/broken', Component: Broken },
          { path: '/unloadable', lazy: () => Promise.reject(new Error('module failed to load')) },
        ],
      },
    ],
  },
];

describe('RouteError', () => {
  it.each(['/broken', '/unloadable'])(
    'shows a Korean apology inside the frame when %s fails, and leads home',
    async (address) => {
      mockFetch([]);
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { router } = renderRoutes(table, address);
      expect(await screen.findByRole('heading', { name: '문제가 생겼어요' })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(
        '페이지를 보여 드리지 못했어요. 새로고침하거나 잠시 뒤에 다시 시도해 주세요.',
      );
      expect(screen.getByRole('button', { name: '새로고침' })).toBeInTheDocument();
      // The header stays, so the rest of the product is one click away.
      expect(screen.getByRole('banner')).toBeInTheDocument();
      await waitFor(() => expect(document.title).toBe('오류 · 바다학원'));
      expect(logged).toHaveBeenCalledWith('page failed', expect.any(Error));
      await userEvent.click(screen.getByRole('button', { name: '메인으로 돌아가기' }));
      expect(await screen.findByText('home page')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/');
    },
  );
});
