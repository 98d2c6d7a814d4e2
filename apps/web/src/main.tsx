import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { prefetchHome } from './features/catalogue/api/prefetch-home.ts';
import { createQueryClient } from './lib/query-client.ts';
import { loadWebFont, webFontCached } from './lib/web-font.ts';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const queryClient = createQueryClient();
// The home page is the usual first visit: ask for its lists now, in parallel with its lazily loaded code.
if (window.location.pathname === '/') prefetchHome(queryClient);

function render(): void {
  createRoot(container as HTMLElement).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
}

// A returning visitor's typeface comes from the HTTP cache: apply it before the first render, so the text never
// changes font under their eyes. A first visit renders at once and gets the typeface once the page has settled.
const cached = webFontCached();
const font = loadWebFont({ cached }).catch((error: unknown) =>
  console.error('The typeface did not load', error),
);
if (cached) void font.then(render);
else render();
