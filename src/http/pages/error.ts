// The page a client error answers with (an unknown listing id, a bad form): status and message.
import { html } from './html.ts';
import { layout } from './layout.ts';
import type { PageResult } from './page.ts';

export function errorPage(status: number, message: string): PageResult {
  const title = status === 404 ? 'Not found' : 'Something is not right';
  return {
    status,
    html: layout({
      title,
      path: '',
      description: message,
      body: html`<header class="page-head"><h1>${title}</h1><p class="lede">${message}</p></header><p class="actions"><a class="btn primary" href="/">Back to the registry</a><a class="btn" href="/list">List a card</a></p>`,
    }),
  };
}
