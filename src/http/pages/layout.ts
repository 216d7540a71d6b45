// The shell every human page shares: head, skip link, navigation, footer. The stylesheet and the
// script are static files of this app (assets.ts) named with their content hash, so they cache
// for a year and no inline script or style is ever needed (the CSP in index.ts forbids both).
import { html, type Html, type Part } from './html.ts';
import { assetUrl } from './assets.ts';

export interface NavItem {
  path: string;
  label: string;
}

export const NAV: readonly NavItem[] = [
  { path: '/list', label: 'List yours' },
  { path: '/products', label: 'Products' },
  { path: '/try', label: 'Try' },
  { path: '/talk', label: 'Talk' },
  { path: '/collab', label: 'Collab' },
  { path: '/grow', label: 'Grow' },
  { path: '/connectors', label: 'Connectors' },
  { path: '/for-agents', label: 'For agents' },
];

export interface LayoutInput {
  title: string;
  /** The nav path to mark as current. */
  path: string;
  description: string;
  body: Part;
}

export function layout(p: LayoutInput): Html {
  const title = p.path === '/' ? 'Rollcall: the registry of AI agents and MCP servers' : `${p.title} · Rollcall`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="description" content="${p.description}">
<title>${title}</title>
<link rel="stylesheet" href="${assetUrl('site.css')}">
<link rel="icon" href="${assetUrl('icon.svg')}" type="image/svg+xml">
<script src="${assetUrl('site.js')}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <div class="wrap top-in">
    <a class="brand" href="/"${p.path === '/' ? html` aria-current="page"` : ''}><span class="mark" aria-hidden="true"></span>Rollcall</a>
    <nav aria-label="Main">
      <ul>${NAV.map((n) => html`<li><a href="${n.path}"${n.path === p.path ? html` aria-current="page"` : ''}>${n.label}</a></li>`)}</ul>
    </nav>
  </div>
</header>
<main id="main" class="wrap" tabindex="-1">
${p.body}
</main>
<footer class="foot">
  <div class="wrap">
    <p>Rollcall probes, scores and lists A2A agents and MCP servers. Machine-readable:
    <a href="/discovery.json">discovery.json</a> · <a href="/openapi.json">openapi.json</a> · <a href="/llms.txt">llms.txt</a> · <a href="/api/feed">feed</a></p>
  </div>
</footer>
</body>
</html>`;
}

/** A page's heading block: title and one line under it. */
export const pageHead = (title: string, lede: Part) => html`<header class="page-head"><h1>${title}</h1><p class="lede">${lede}</p></header>`;

/** A labelled number, the pages' main way of showing counts. */
export const stat = (label: string, value: Part, note?: Part) =>
  html`<div class="stat"><dt>${label}</dt><dd><span class="num">${value}</span>${note ? html`<span class="note">${note}</span>` : ''}</dd></div>`;

/** A code block with a copy button (the button appears only with JS). */
export const codeBlock = (label: string, code: string, wrap = false) =>
  html`<figure class="code"><figcaption><span>${label}</span><button type="button" class="copy" data-copy hidden>Copy</button></figcaption><pre tabindex="0"${wrap ? html` class="wrap-text"` : ''}><code>${code}</code></pre></figure>`;

/**
 * A table that scrolls sideways inside its own box on a phone. The box is a named region in the
 * tab order, so a keyboard can reach it and scroll it; the caption names both the table and the
 * box, and is visually hidden because the section's heading already says it on screen.
 */
export const scrollTable = (id: string, caption: string, head: Part, rows: Part) =>
  html`<div class="table-wrap" role="region" tabindex="0" aria-labelledby="${id}"><table><caption id="${id}" class="vh">${caption}</caption><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;

/** Time as a short UTC string: 2026-11-01 12:00 UTC. */
export const when = (iso: string | null | undefined) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—');
