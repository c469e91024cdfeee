import './styles/index.css';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { currentRoute, initialView } from './boot';
import { readPageData } from './data/pageData';
import { Standalone } from './Standalone';

function boot() {
  const data = readPageData();
  if (!data) return;
  const base = document.documentElement.getAttribute('data-base') ?? data.site.base ?? '';
  const route = currentRoute(base);
  const shell = document.getElementById('dg-root');
  if (!shell) {
    // A page with a layout of its own: only its islands, footer year and consent dialog.
    const container = document.createElement('div');
    container.id = 'dg-app';
    document.body.appendChild(container);
    const article = document.querySelector<HTMLElement>('.dg-article');
    flushSync(() => createRoot(container).render(<Standalone site={data.site} base={base} article={article} />));
  } else {
    const view = initialView(data, route, base, shell);
    // Synchronous first render: the pre-rendered shell is replaced by the same elements within
    // this task, before the browser paints again.
    flushSync(() => createRoot(shell).render(<App boot={{ site: data.site, base, view, navShards: data.navShards }} />));
  }
  // For scripts and tests that wait for the app.
  document.documentElement.setAttribute('data-dg-app', 'mounted');
}

boot();
