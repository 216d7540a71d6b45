// Rollcall pages: the only script, and an optional one. Every page works without it; with it the
// list form publishes through the API and follows the probe until Live, the try forms call the MCP
// endpoint, a listing waiting for its probe says when the probe settles, and code blocks get a copy
// button. Data is always set with textContent, never as HTML.
(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };

  for (const n of document.querySelectorAll('[data-nojs]')) n.hidden = true;

  // Copy buttons beside code blocks.
  for (const b of document.querySelectorAll('[data-copy]')) {
    if (!navigator.clipboard) continue;
    b.hidden = false;
    b.addEventListener('click', async () => {
      const code = b.closest('figure').querySelector('pre');
      try {
        await navigator.clipboard.writeText(code.textContent);
        b.textContent = 'Copied';
      } catch {
        b.textContent = 'Select and copy';
      }
      setTimeout(() => { b.textContent = 'Copy'; }, 1500);
    });
  }

  const errorText = (body, status) => (body?.error?.message) || `request failed (${status})`;

  // A form's button while its request runs: marked busy with aria-disabled, never `disabled`, which
  // would drop the keyboard focus of the person who pressed it to <body>. Busy refuses a new submit.
  const isBusy = (button) => button.getAttribute('aria-disabled') === 'true';
  const setBusy = (button, busy) => {
    if (busy) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
  };

  // The list form: POST /api/publish, then poll the status until the lane settles.
  const form = $('[data-publish]');
  if (form) {
    const status = $('#list-status');
    const live = $('#list-live');
    const button = form.querySelector('button[type=submit]');
    const show = (text, tone) => {
      status.hidden = false;
      status.className = `status${tone ? ` ${tone}` : ''}`;
      status.textContent = text;
    };
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const demoNote = $('#live-next').textContent;
    // What a Live listing is offered is its own next_step: the claim while it is unclaimed (with the
    // demo beside it until one is taken), the demo, or the step after a demo taken.
    const showLive = (id, s) => {
      const claim = s.next_step?.tool === 'claim_listing';
      const demo = !s.next_step || s.next_step.tool === 'take_demo' || (claim && !s.demoed);
      const demoLink = $('#demo-link');
      const listingLink = $('#listing-link');
      $('#live-h').textContent = claim ? (demo ? 'It is Live. Claim it, then take the free demo.' : 'It is Live. Claim it.') : demo ? 'It is Live. Take the free demo.' : 'It is Live.';
      $('#live-next').textContent = demo && !claim ? demoNote : `Next: ${s.next_step.why} Your listing page shows the call.`;
      demoLink.hidden = !demo;
      demoLink.href = demo ? s.take_demo_get || `/api/products/demo?listing_id=${encodeURIComponent(id)}` : '#';
      listingLink.href = `/l/${encodeURIComponent(id)}`;
      listingLink.className = demo && !claim ? 'btn' : 'btn primary';
      demoLink.className = claim ? 'btn' : 'btn primary';
      $('#demo-curl').hidden = !demo;
      $('#demo-curl').textContent = demo && s.take_demo_get ? `curl -sS '${s.take_demo_get}'` : '';
      live.hidden = false;
      (demo && !claim ? demoLink : listingLink).focus();
    };
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      if (isBusy(button)) return;
      live.hidden = true;
      const data = new FormData(form);
      const body = { source: 'web' };
      // The form token guards the form's own POST (without JS); the JSON API takes no such field.
      for (const [k, v] of data) if (k !== 'form_token' && String(v).trim() !== '') body[k] = String(v).trim();
      setBusy(button, true);
      show('Listing…');
      try {
        const res = await fetch('/api/publish', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
        const out = await res.json().catch(() => ({}));
        if (!res.ok) {
          show(errorText(out, res.status), 'bad');
          return;
        }
        const id = out.id;
        show(`Listed as ${id}. Lane: ${out.lane}. Probing…`);
        let wait = 700;
        for (let i = 0; i < 200; i++) {
          const r = await fetch(`/api/listings/status?id=${encodeURIComponent(id)}`, { headers: { accept: 'application/json' } });
          const s = await r.json().catch(() => ({}));
          if (!r.ok) {
            show(errorText(s, r.status), 'bad');
            return;
          }
          if (s.lane === 'active') {
            show(`Live: ${s.name} scored ${s.probe?.score} of 100.`, 'good');
            showLive(id, s);
            return;
          }
          if (s.lane === 'failed' || s.lane === 'dormant') {
            show(`Not Live: ${s.lane}${s.lane_reason ? ` (${s.lane_reason})` : ''}. Fix it and list again; what the probe found is on `, 'bad');
            const page = el('a', 'its listing page');
            page.href = `/l/${encodeURIComponent(id)}`;
            status.append(page, '.');
            return;
          }
          show(`Lane: ${s.lane}. Waiting for the probe…`);
          await sleep(wait);
          wait = Math.min(3000, wait * 1.4);
        }
        show('Still probing: see your listing page for the result.');
      } catch (err) {
        show(`Network error: ${err.message}`, 'bad');
      } finally {
        setBusy(button, false);
      }
    });
  }

  // A listing still waiting for its probe: its status is polled, and a change of lane is said in
  // the polite live region. The page never reloads itself; the Refresh status link does, on request.
  const wait = $('[data-listing-wait]');
  if (wait) {
    const id = wait.dataset.listingWait;
    const msg = $('#wait-msg');
    let lane = wait.dataset.lane;
    let delay = 3000;
    const until = Date.now() + 10 * 60_000;
    const poll = async () => {
      try {
        const r = await fetch(`/api/listings/status?id=${encodeURIComponent(id)}`, { headers: { accept: 'application/json' } });
        const s = await r.json().catch(() => ({}));
        if (r.ok && s.lane && s.lane !== lane) {
          lane = s.lane;
          const settled = lane !== 'queued' && lane !== 'probing';
          msg.textContent = !settled
            ? `The probe is running (lane: ${lane}).`
            : lane === 'active'
              ? `The probe finished: the listing is Live, scored ${s.probe?.score} of 100. Refresh status to see its page.`
              : `The probe finished: the listing is not Live (${lane}${s.lane_reason ? `: ${s.lane_reason}` : ''}). Refresh status to see why.`;
          if (settled) {
            $('#wait-refresh').className = 'btn primary';
            return;
          }
        }
      } catch {
        // A failed poll is retried at the next one.
      }
      if (Date.now() > until) {
        msg.textContent = 'Still waiting for the probe: refresh the status to check again.';
        return;
      }
      setTimeout(poll, delay);
      delay = Math.min(15_000, Math.round(delay * 1.25));
    };
    setTimeout(poll, delay);
  }

  // The try forms: a JSON-RPC tools/call to the real MCP endpoint.
  let rpcId = 0;
  const callTool = async (name, args) => {
    const res = await fetch('/api/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } }),
    });
    const out = await res.json();
    if (out.error) throw new Error(out.error.message);
    const sc = out.result?.structuredContent;
    if (out.result?.isError) throw new Error((sc?.error?.message) || 'the tool failed');
    return sc;
  };

  const render = {
    improve_kernel(out, box) {
      box.append(el('h3', `System prompt (${out.chars} characters, version ${out.version})`));
      const pre = el('pre', out.system_prompt_short, 'wrap-text');
      pre.tabIndex = 0;
      box.append(pre);
      if (out.next_step) box.append(el('p', `Next: ${out.next_step.tool} — ${out.next_step.why}`, 'small muted'));
    },
    ard_search(out, box) {
      box.append(el('p', `${out.count} result${out.count === 1 ? '' : 's'} for “${out.query}”`, 'small muted'));
      if (!out.hits.length) {
        box.append(el('p', 'Nothing matched.', 'empty-note'));
        return;
      }
      const ul = el('ul', undefined, 'rows');
      for (const h of out.hits) {
        const li = el('li');
        const main = el('span', undefined, 'row-main');
        // A Live listing links to its page, a catalog entry to its record in this registry's copy
        // of the registry API (parts.ts renders the same links without JS).
        const href = h.listing_id ? `/l/${encodeURIComponent(h.listing_id)}` : h.server ? `/c/${h.server.split('/').map(encodeURIComponent).join('/')}` : '';
        if (href) {
          const a = el('a', h.name);
          a.href = href;
          main.append(a);
        } else main.append(el('strong', h.name));
        main.append(' ', el('span', `${h.kind === 'agent' ? 'A2A agent' : 'MCP server'} · ${h.source === 'listing' ? 'Live listing' : 'catalog'}`, 'muted small'), el('br'), el('span', (h.description || '').slice(0, 160), 'muted small'));
        li.append(main);
        if (h.trust && h.trust.probe_score !== null) li.append(el('span', `score ${h.trust.probe_score}`, 'pill'));
        ul.append(li);
      }
      box.append(ul);
    },
  };

  for (const f of document.querySelectorAll('[data-mcp-tool]')) {
    const tool = f.dataset.mcpTool;
    const box = tool === 'improve_kernel' ? $('#kernel-out') : $('#search-out');
    f.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const args = {};
      for (const [k, v] of new FormData(f)) args[k] = String(v);
      const button = f.querySelector('button[type=submit]');
      if (isBusy(button)) return;
      setBusy(button, true);
      box.replaceChildren(el('p', 'Calling /api/mcp…', 'small muted'));
      try {
        const out = await callTool(tool, args);
        box.replaceChildren();
        render[tool](out, box);
      } catch (err) {
        box.replaceChildren(el('p', err.message, 'error'));
      } finally {
        setBusy(button, false);
      }
    });
  }
})();
