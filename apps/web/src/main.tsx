import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { prefetchHome } from './features/catalogue/api/prefetch-home.ts';
import { createQueryClient } from './lib/query-client.ts';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const queryClient = createQueryClient();
// The home page is the usual first visit: ask for its lists now, in parallel with its lazily loaded code.
if (window.location.pathname === '/') prefetchHome(queryClient);

createRoot(container).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
