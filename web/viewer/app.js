// The Cortex viewer: plain DOM, no framework, no network beyond this server's /api/.
// Memory text is only ever set as textContent (never innerHTML): a memory is data, not markup.
'use strict';

(function () {
  const TOKEN_KEY = 'cortex-token';
  // The token arrives in the URL fragment (never sent to the server or in a Referer); it is
  // kept for this tab only and taken out of the address bar.
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
  }
  const token = sessionStorage.getItem(TOKEN_KEY) || '';

  const $ = (id) => document.getElementById(id);
  const el = (tag, props, children) => {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const c of children || []) node.append(c);
    return node;
  };

  function notice(text) {
    const n = $('notice');
    n.textContent = text || '';
    n.hidden = !text;
  }

  async function api(method, path, body) {
    const res = await fetch('/api' + path, {
      method,
      headers: Object.assign({ authorization: 'Bearer ' + token }, body === undefined ? {} : { 'content-type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const e = new Error((data.error && data.error.message) || res.statusText);
      e.status = res.status;
      e.error = data.error || {};
      throw e;
    }
    return data;
  }

  function errorText(e) {
    const parts = [e.message];
    if (e.error && e.error.hint) parts.push(e.error.hint);
    const diags = (e.error && e.error.data && e.error.data.diagnostics) || [];
    for (const d of diags) parts.push((d.line ? 'line ' + d.line + ': ' : '') + d.reason + (d.hint ? ' (' + d.hint + ')' : ''));
    return parts.join('\n');
  }

  /** The words of the query, for highlighting (at least two characters each). */
  function terms(query) {
    return query.toLowerCase().split(/[^\p{L}\p{N}_-]+/u).filter((t) => t.length >= 2);
  }

  /** `text` as nodes, with every occurrence of a term wrapped in <mark>. */
  function highlighted(text, words) {
    if (words.length === 0) return [document.createTextNode(text)];
    const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const re = new RegExp('(' + escaped.join('|') + ')', 'giu');
    return text.split(re).map((part, i) => (i % 2 === 1 ? el('mark', { textContent: part }) : document.createTextNode(part)));
  }

  let current = null;

  function showResults(items, query, label) {
    const list = $('results');
    list.replaceChildren();
    const words = terms(query || '');
    $('result-count').textContent = label;
    items.forEach((m, i) => {
      const button = el('button', { type: 'button' }, [el('span', { className: 'type', textContent: m.type }), ...highlighted(m.summary, words)]);
      button.dataset.id = m.id;
      button.dataset.index = String(i);
      button.addEventListener('click', () => openMemory(m.id, true));
      button.addEventListener('keydown', (ev) => {
        const buttons = [...list.querySelectorAll('button')];
        const at = buttons.indexOf(button);
        if (ev.key === 'ArrowDown' && at < buttons.length - 1) { buttons[at + 1].focus(); ev.preventDefault(); }
        if (ev.key === 'ArrowUp' && at > 0) { buttons[at - 1].focus(); ev.preventDefault(); }
        if (ev.key === 'ArrowUp' && at === 0) { $('q').focus(); ev.preventDefault(); }
      });
      list.append(el('li', {}, [button]));
    });
  }

  async function search(ev) {
    if (ev) ev.preventDefault();
    const q = $('q').value.trim();
    const status = $('archived').checked ? '&status=all' : '';
    try {
      notice('');
      if (q === '') {
        const data = await api('GET', '/memories?limit=50' + status);
        showResults(data.memories, '', data.total + ' memories, newest first');
      } else {
        const data = await api('GET', '/search?q=' + encodeURIComponent(q) + status);
        showResults(data.results, q, data.results.length + (data.results.length === 1 ? ' result' : ' results') + ' for “' + q + '”');
      }
    } catch (e) {
      notice(errorText(e));
    }
  }

  function fact(name, value) {
    return [el('dt', { textContent: name }), el('dd', { textContent: value })];
  }

  async function openMemory(id, focus) {
    try {
      notice('');
      const data = await api('GET', '/memories/' + encodeURIComponent(id));
      const m = data.memory;
      current = m.id;
      $('memory-title').textContent = m.summary;
      $('facts').replaceChildren(
        ...fact('id', m.id),
        ...fact('type', m.type),
        ...fact('status', m.status),
        ...fact('priority', String(m.priority)),
        ...fact('confidence', String(m.confidence)),
        ...fact('tags', (m.tags || []).join(', ') || '—'),
        ...fact('updated', m.updated || m.created || ''),
        ...fact('file', data.file),
      );
      $('body').textContent = m.body || '';
      $('source').value = data.source;
      $('edit-error').hidden = true;
      $('memory-view').hidden = false;
      for (const b of $('results').querySelectorAll('button')) b.setAttribute('aria-current', String(b.dataset.id === m.id));
      await showEdges(m.id);
      if (focus) $('memory').focus();
    } catch (e) {
      notice(errorText(e));
    }
  }

  async function showEdges(id) {
    const list = $('edges');
    list.replaceChildren();
    const data = await api('GET', '/memories/' + encodeURIComponent(id) + '/edges');
    const rows = [
      ...data.out.map((e) => ({ text: e.relation + ' → ', other: e.target, e })),
      ...data.in.map((e) => ({ text: '← ' + e.relation + ' from ', other: e.source, e })),
    ];
    if (rows.length === 0) list.append(el('li', { className: 'muted', textContent: 'No links.' }));
    for (const r of rows) {
      const link = el('button', { type: 'button', textContent: r.other });
      link.addEventListener('click', () => openMemory(r.other, true));
      list.append(el('li', {}, [r.text, link, r.e.status === 'suggested' ? ' (suggested)' : '']));
    }
  }

  async function save(ev) {
    ev.preventDefault();
    if (!current) return;
    const box = $('edit-error');
    try {
      const out = await api('PUT', '/memories/' + encodeURIComponent(current) + '/source', { text: $('source').value });
      box.hidden = true;
      notice(out.changed ? 'Saved ' + out.file : 'No changes.');
      await openMemory(current, false);
    } catch (e) {
      box.textContent = errorText(e);
      box.hidden = false;
      $('source').focus();
    }
  }

  async function archive() {
    if (!current || !confirm('Archive this memory? It leaves recall and the briefing; the file stays.')) return;
    try {
      await api('POST', '/memories/' + encodeURIComponent(current) + '/archive', {});
      await openMemory(current, false);
      await search();
    } catch (e) {
      notice(errorText(e));
    }
  }

  async function loadReview() {
    const list = $('review-items');
    list.replaceChildren();
    try {
      const data = await api('GET', '/review');
      $('review-empty').hidden = data.items.length > 0;
      for (const item of data.items) {
        const accept = el('button', { type: 'button', textContent: 'Accept' });
        const reject = el('button', { type: 'button', textContent: 'Reject' });
        accept.setAttribute('aria-label', 'Accept item ' + item.n + ': ' + item.summary);
        reject.setAttribute('aria-label', 'Reject item ' + item.n + ': ' + item.summary);
        accept.addEventListener('click', () => decide('accept', item));
        reject.addEventListener('click', () => decide('reject', item));
        list.append(el('li', {}, [item.n + '. ', el('span', { className: 'type', textContent: item.type || item.kind }), item.summary + ' ', accept, ' ', reject]));
      }
    } catch (e) {
      notice(errorText(e));
    }
  }

  async function decide(verb, item) {
    try {
      await api('POST', '/review/' + verb, { select: [String(item.n)] });
      notice((verb === 'accept' ? 'Accepted: ' : 'Rejected: ') + item.summary);
      await loadReview();
      if (verb === 'accept') await search();
    } catch (e) {
      notice(errorText(e));
    }
  }

  async function start() {
    if (!token) {
      notice('No token: open the URL that `cortex serve` printed (it ends with #token=…).');
      return;
    }
    $('search').addEventListener('submit', search);
    $('archived').addEventListener('change', () => search());
    $('editor').addEventListener('submit', save);
    $('archive').addEventListener('click', archive);
    $('q').addEventListener('keydown', (ev) => {
      const first = $('results').querySelector('button');
      if (ev.key === 'ArrowDown' && first) { first.focus(); ev.preventDefault(); }
    });
    try {
      const status = await api('GET', '/status');
      $('project').textContent = status.root;
    } catch (e) {
      notice(errorText(e));
      return;
    }
    await search();
    await loadReview();
  }

  start();
})();
