// ==UserScript==
// @name         mangabookmark
// @namespace    __MB_BASE_URL__
// @version      1.0.0
// @description  Records the chapters you read on the six Sites, syncs them to your mangabookmark server and shows the ember on Series with a New Chapter.
// @author       mangabookmark
// @updateURL    __MB_BASE_URL__/userscript/mangabookmark.user.js
// @downloadURL  __MB_BASE_URL__/userscript/mangabookmark.user.js
// @match        *://kagane.to/*
// @match        *://www.kagane.to/*
// @match        *://kagane.org/*
// @match        *://www.kagane.org/*
// @match        *://comix.to/*
// @match        *://www.comix.to/*
// @match        *://comix.ws/*
// @match        *://www.comix.ws/*
// @match        *://natomanga.com/*
// @match        *://www.natomanga.com/*
// @match        *://nelomanga.net/*
// @match        *://www.nelomanga.net/*
// @match        *://manganato.gg/*
// @match        *://www.manganato.gg/*
// @match        *://mangakakalot.gg/*
// @match        *://www.mangakakalot.gg/*
// @match        *://mangakakalove.com/*
// @match        *://www.mangakakalove.com/*
// @match        *://mangadex.org/*
// @match        *://www.mangadex.org/*
// @match        *://weebcentral.com/*
// @match        *://www.weebcentral.com/*
// @match        *://mangapill.com/*
// @match        *://www.mangapill.com/*
// @connect      __MB_CONNECT_HOST__
// @grant        GM_xmlhttpRequest
// @grant        GM_getValue
// @grant        GM_setValue
// @run-at       document-idle
// @noframes
// ==/UserScript==

/* global GM_xmlhttpRequest, GM_getValue, GM_setValue, unsafeWindow */
(function () {
  'use strict';

  // ---- constants -----------------------------------------------------------
  const DEFAULT_BASE_URL = '__MB_BASE_URL__';
  const QUEUE_MAX = 200; // reads kept while the backend is unreachable
  const BATCH_MAX = 50; // reads per POST /api/progress
  const RETRY_MIN_MS = 2000;
  const RETRY_MAX_MS = 5 * 60 * 1000;
  const BOOKMARKS_TTL_MS = 15 * 60 * 1000;
  const DETECT_TRIES = 12; // DOM-based Sites render the chapter late
  const DETECT_EVERY_MS = 500;
  const KEY = { queue: 'mb_queue', bookmarks: 'mb_bookmarks', base: 'mb_base_url', token: 'mb_token' };

  const W = typeof unsafeWindow !== 'undefined' ? unsafeWindow : window;
  if (W.__MB_LOADED) return;
  W.__MB_LOADED = true;

  // ---- chapter numbers -----------------------------------------------------
  // normNumber mirrors the backend's ParseNumber: plain decimals only,
  // leading zeros and trailing fraction zeros dropped.
  function normNumber(s) {
    const m = /^\s*(\d{1,6})(?:\.(\d{1,4}))?\s*$/.exec(String(s));
    if (!m) return null;
    const i = m[1].replace(/^0+(?=\d)/, '');
    const f = (m[2] || '').replace(/0+$/, '');
    return f ? i + '.' + f : i;
  }
  function cmpNumber(a, b) {
    const x = normNumber(a), y = normNumber(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? -1 : 1;
    const [xi, xf = ''] = x.split('.'), [yi, yf = ''] = y.split('.');
    if (xi.length !== yi.length) return xi.length < yi.length ? -1 : 1;
    if (xi !== yi) return xi < yi ? -1 : 1;
    const n = Math.max(xf.length, yf.length);
    const a2 = xf.padEnd(n, '0'), b2 = yf.padEnd(n, '0');
    return a2 === b2 ? 0 : a2 < b2 ? -1 : 1;
  }
  // "chapter-12", "chapter-12-5", "chapter-12.5" -> "12", "12.5"
  function numberFromSlug(slug) {
    const m = /chapter[-_ ]?(\d+)(?:[-.](\d+))?(?:$|[^\d])/i.exec(slug || '');
    return m ? normNumber(m[2] ? m[1] + '.' + m[2] : m[1]) : null;
  }
  // "Chapter 105.5", "Ch. 12" in the page's title or headings.
  function numberFromDOM(doc) {
    const texts = [doc.title];
    doc.querySelectorAll('h1, h2, [data-chapter-number], [class*="chapter"]').forEach((el, i) => {
      if (i < 20) texts.push(el.getAttribute('data-chapter-number') ? 'chapter ' + el.getAttribute('data-chapter-number') : el.textContent);
    });
    for (const t of texts) {
      const m = /(?:^|[^a-z])ch(?:apter|\.|p)?\s*[.:#]?\s*(\d{1,6}(?:\.\d{1,4})?)(?![\d.])/i.exec(t || '');
      if (m) return normNumber(m[1]);
    }
    return null;
  }
  function seg(u) { return u.pathname.split('/').filter(Boolean).map(decodeURIComponent); }
  function linkSegs(doc, re) {
    for (const a of doc.querySelectorAll('a[href]')) {
      try {
        const u = new URL(a.getAttribute('href'), location.href);
        const m = re.exec(u.pathname);
        if (m) return m;
      } catch (e) { /* ignore bad hrefs */ }
    }
    return null;
  }

  // ---- the Sites: same URL rules as the backend's canonicaliser -----------
  // chapter(u, doc) returns {series_id, number} on a chapter page, else null.
  const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
  const SITES = [
    { name: 'kagane', hosts: ['kagane.to', 'kagane.org'],
      // /series/{id}/reader/{bookId}; the number is only in the page.
      chapter(u, doc) {
        const s = seg(u);
        if (s[0] !== 'series' || s[2] !== 'reader' || !s[1] || !s[3]) return null;
        return { series_id: s[1].toLowerCase(), number: numberFromDOM(doc) };
      } },
    { name: 'comix', hosts: ['comix.to', 'comix.ws'],
      // /title/{hid}-{slug}/{chapterId}-chapter-{n}; the id is hid-slug
      chapter(u) {
        const s = seg(u);
        if (s[0] !== 'title' || !s[1] || !s[2]) return null;
        const id = s[1].toLowerCase().replace(/^-+|-+$/g, '');
        const n = numberFromSlug(s[2]);
        return id && n ? { series_id: id, number: n } : null;
      } },
    { name: 'natomanga', hosts: ['natomanga.com', 'nelomanga.net', 'manganato.gg', 'mangakakalot.gg', 'mangakakalove.com'],
      // /manga/{slug}/chapter-{n}
      chapter(u) {
        const s = seg(u);
        if (s[0] !== 'manga' || !s[1] || !s[2]) return null;
        const n = numberFromSlug(s[2]);
        return n ? { series_id: s[1].toLowerCase(), number: n } : null;
      } },
    { name: 'mangadex', hosts: ['mangadex.org'],
      // /chapter/{uuid}: the Series is the page's link to /title/{uuid}.
      chapter(u, doc) {
        const s = seg(u);
        if (s[0] !== 'chapter' || !new RegExp('^' + UUID + '$', 'i').test(s[1] || '')) return null;
        const m = linkSegs(doc, new RegExp('^/(?:title|manga)/(' + UUID + ')', 'i'));
        return { series_id: m ? m[1].toLowerCase() : null, number: numberFromDOM(doc) };
      } },
    { name: 'weebcentral', hosts: ['weebcentral.com'],
      // /chapters/{ULID}: the Series is the page's link to /series/{ULID}.
      chapter(u, doc) {
        const s = seg(u);
        if (s[0] !== 'chapters' || !s[1]) return null;
        const m = linkSegs(doc, /^\/series\/([0-9A-HJKMNP-TV-Z]{26})(?:\/|$)/i);
        return { series_id: m ? m[1].toUpperCase() : null, number: numberFromDOM(doc) };
      } },
    { name: 'mangapill', hosts: ['mangapill.com'],
      // /chapters/{mangaId}-{code}/{slug}: code is "1" + number x 1000.
      chapter(u, doc) {
        const s = seg(u);
        const m = /^(\d+)-(\d+)$/.exec(s[1] || '');
        if (s[0] !== 'chapters' || !m) return null;
        let n = null;
        if (/^1\d{6,}$/.test(m[2])) {
          const digits = m[2].slice(1);
          n = normNumber(digits.slice(0, -3) + '.' + digits.slice(-3));
        }
        return { series_id: m[1], number: n || numberFromSlug(s[2]) || numberFromDOM(doc) };
      } },
  ];

  // series(u) returns the Series id of a Series page (the backend's
  // canonical form), else null: the ember and the bookmark button use it.
  const SERIES = {
    kagane: (s) => (s[0] === 'series' && s[1] && !s[2] ? s[1].toLowerCase() : null),
    comix: (s) => (s[0] === 'title' && s[1] && !s[2] ? s[1].toLowerCase().replace(/^-+|-+$/g, '') : null),
    natomanga: (s) => (s[0] === 'manga' && s[1] && !s[2] ? s[1].toLowerCase() : null),
    mangadex: (s) => ((s[0] === 'title' || s[0] === 'manga') && new RegExp('^' + UUID + '$', 'i').test(s[1] || '') ? s[1].toLowerCase() : null),
    weebcentral: (s) => (s[0] === 'series' && /^[0-9A-HJKMNP-TV-Z]{26}$/i.test(s[1] || '') ? s[1].toUpperCase() : null),
    mangapill: (s) => (s[0] === 'manga' && /^\d+$/.test(s[1] || '') && !/^0+$/.test(s[1]) ? s[1].replace(/^0+/, '') : null),
  };

  function bareHost(h) { return String(h).toLowerCase().replace(/\.$/, '').replace(/^www\./, ''); }
  // siteFor finds the Site of this page. window.__MB_TEST_SITES ({"host:port":
  // "mangapill"}) extends the table so tests can run on a local simulator;
  // it is consulted only when a page defines it.
  function siteFor(u) {
    const test = W.__MB_TEST_SITES;
    if (test && typeof test === 'object') {
      const name = test[u.host] || test[bareHost(u.host)];
      if (name) return SITES.find((s) => s.name === name) || null;
    }
    const h = bareHost(u.hostname);
    return SITES.find((s) => s.hosts.includes(h)) || null;
  }

  // ---- storage ------------------------------------------------------------
  function getJSON(key, dflt) {
    try {
      const v = GM_getValue(key, null);
      if (v === null || v === undefined || v === '') return dflt;
      return typeof v === 'string' ? JSON.parse(v) : v;
    } catch (e) { return dflt; }
  }
  function setJSON(key, v) { GM_setValue(key, JSON.stringify(v)); }
  function settings() {
    const base = String(GM_getValue(KEY.base, '') || DEFAULT_BASE_URL).replace(/\/+$/, '');
    return { base, token: String(GM_getValue(KEY.token, '') || '') };
  }
  function loadQueue() { const q = getJSON(KEY.queue, []); return Array.isArray(q) ? q : []; }
  function saveQueue(q) { setJSON(KEY.queue, q); }
  function readKey(r) { return [r.site, r.series_id, r.number, r.read_at].join('|'); }

  // ---- HTTP -----------------------------------------------------------------
  function request(method, path, body) {
    const { base, token } = settings();
    return new Promise((resolve, reject) => {
      GM_xmlhttpRequest({
        method, url: base + path, timeout: 15000,
        headers: Object.assign({ Accept: 'application/json', Authorization: 'Bearer ' + token },
          body ? { 'Content-Type': 'application/json' } : {}),
        data: body ? JSON.stringify(body) : undefined,
        onload: (r) => resolve({ status: r.status, text: r.responseText || '' }),
        onerror: () => reject(new Error('network error')),
        ontimeout: () => reject(new Error('timeout')),
        onabort: () => reject(new Error('aborted')),
      });
    });
  }
  function errorText(res) {
    try { return JSON.parse(res.text).error || ('HTTP ' + res.status); } catch (e) { return 'HTTP ' + res.status; }
  }

  // ---- the write queue --------------------------------------------------------
  let flushing = false, authBlocked = false, retryTimer = null, attempt = 0;

  function enqueue(read) {
    const q = loadQueue();
    if (q.some((r) => r.site === read.site && r.series_id === read.series_id && r.number === read.number)) return;
    q.push(read);
    let dropped = 0;
    while (q.length > QUEUE_MAX) { q.shift(); dropped++; }
    saveQueue(q);
    if (dropped) toast('mangabookmark: the offline queue is full (' + QUEUE_MAX + '); the oldest read was dropped.');
    render();
  }

  function scheduleRetry() {
    if (retryTimer) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * Math.pow(2, attempt)) * (0.75 + Math.random() * 0.5);
    attempt++;
    retryTimer = setTimeout(() => { retryTimer = null; flush(); }, delay);
  }

  function removeSent(sent) {
    const gone = new Set(sent.map(readKey));
    saveQueue(loadQueue().filter((r) => !gone.has(readKey(r))));
  }

  async function flush() {
    if (flushing || authBlocked) return;
    const q = loadQueue();
    const { token } = settings();
    if (!q.length || !token) { render(); return; }
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    flushing = true;
    const batch = q.slice(0, BATCH_MAX);
    let res;
    try {
      res = await request('POST', '/api/progress', { reads: batch });
    } catch (e) {
      flushing = false;
      render();
      scheduleRetry(); // dropped connection: keep the reads, try later
      return;
    }
    flushing = false;
    if (res.status === 200) {
      attempt = 0;
      removeSent(batch);
      try {
        const body = JSON.parse(res.text);
        (body.errors || []).forEach((e) => console.warn('mangabookmark: read refused:', batch[e.index], e.error));
      } catch (e) { /* the count is all we need */ }
      render();
      if (loadQueue().length) flush(); else refreshBookmarks(true);
    } else if (res.status === 400) {
      // The server will never accept these as sent: drop them and say so.
      removeSent(batch);
      toast('mangabookmark: the server refused a read: ' + errorText(res));
      render();
    } else if (res.status === 413 || res.status === 415 || res.status === 422) {
      // Equally final, but not worth a toast (only 400, 401 and a full
      // queue interrupt the Reader).
      removeSent(batch);
      console.warn('mangabookmark: reads dropped:', errorText(res));
      render();
    } else if (res.status === 401) {
      authBlocked = true;
      toast('mangabookmark: your token was refused (401). Log in again and paste the new token in settings.');
      render();
    } else {
      render(); // 429, 5xx: transient
      scheduleRetry();
    }
  }

  // ---- bookmarks cache and the ember ---------------------------------------
  function cachedBookmarks() { const c = getJSON(KEY.bookmarks, null); return c && Array.isArray(c.list) ? c : { at: 0, list: [] }; }
  async function refreshBookmarks(force) {
    const c = cachedBookmarks();
    if (!settings().token || authBlocked || (!force && Date.now() - c.at < BOOKMARKS_TTL_MS)) { render(); return; }
    try {
      const res = await request('GET', '/api/bookmarks');
      if (res.status === 200) setJSON(KEY.bookmarks, { at: Date.now(), list: JSON.parse(res.text).bookmarks || [] });
      else if (res.status === 401) { authBlocked = true; toast('mangabookmark: your token was refused (401). Log in again and paste the new token in settings.'); }
    } catch (e) { /* offline: the cache serves */ }
    render();
  }
  // isNew mirrors the server: a Latest Chapter beyond the Reader's Progress.
  function isNew(b) { return !!(b && b.latest && b.progress && cmpNumber(b.latest.number, b.progress.number) > 0); }
  // noteLocally moves the cached Progress so the ember answers offline too.
  function noteLocally(read) {
    const c = cachedBookmarks();
    let b = c.list.find((x) => x.site === read.site && x.series_id === read.series_id);
    if (!b) { b = { site: read.site, series_id: read.series_id, title: '', url: '', latest: null, progress: null, new: false }; c.list.push(b); }
    if (!b.progress || cmpNumber(read.number, b.progress.number) > 0) b.progress = { number: read.number, read_at: read.read_at };
    b.new = isNew(b);
    setJSON(KEY.bookmarks, c);
  }

  // ---- page recognition (with SPA navigation) -------------------------------
  let current = null; // {site, series_id} of this page, for the ember
  let onSeriesPage = false; // a Series page: the bookmark button shows
  let lastRecorded = '';
  let detectRun = 0;

  function detect() {
    const run = ++detectRun;
    let tries = 0;
    const step = () => {
      if (run !== detectRun) return; // a newer navigation took over
      const u = new URL(location.href);
      const site = siteFor(u);
      if (!site) { current = null; render(); return; }
      const got = site.chapter(u, document);
      const seriesPage = got ? null : SERIES[site.name](seg(u));
      current = got && got.series_id ? { site: site.name, series_id: got.series_id }
        : seriesPage ? { site: site.name, series_id: seriesPage } : null;
      onSeriesPage = !!seriesPage;
      if (got && got.series_id && got.number) {
        const key = site.name + '|' + got.series_id + '|' + got.number + '|' + u.pathname;
        if (key !== lastRecorded) {
          lastRecorded = key;
          const read = { site: site.name, series_id: got.series_id, number: got.number, url: u.href, read_at: new Date().toISOString() };
          noteLocally(read);
          enqueue(read);
          flush();
        }
        render();
        return;
      }
      render();
      if (got && ++tries < DETECT_TRIES) setTimeout(step, DETECT_EVERY_MS);
    };
    step();
  }

  function hookHistory() {
    const h = W.history;
    ['pushState', 'replaceState'].forEach((fn) => {
      const orig = h[fn];
      h[fn] = function () {
        const out = orig.apply(this, arguments);
        setTimeout(onNavigate, 0);
        return out;
      };
    });
    W.addEventListener('popstate', () => setTimeout(onNavigate, 0));
    // Some routers keep their own reference to pushState: watch the URL too.
    setInterval(onNavigate, 1000);
  }
  let seenHref = location.href;
  function onNavigate() {
    if (location.href === seenHref) return;
    seenHref = location.href;
    detect();
  }

  // ---- the panel, settings and toasts ----------------------------------------
  let panel, statusEl, emberEl, markEl, formEl, toastEl;
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text) e.textContent = text;
    return e;
  }
  function buildPanel() {
    panel = el('div', { id: 'mb-panel', style: 'position:fixed;right:12px;bottom:12px;z-index:2147483647;font:13px/1.4 system-ui,sans-serif;background:#1d1d1f;color:#eee;padding:6px 10px;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.4);max-width:320px' });
    const row = el('div', { style: 'display:flex;gap:8px;align-items:center' });
    row.appendChild(el('b', {}, 'mb'));
    emberEl = el('span', { id: 'mb-ember', title: 'New Chapter', style: 'display:none;color:#ff7a1a' }, '🔥 New Chapter');
    statusEl = el('span', { id: 'mb-status' });
    const gear = el('a', { id: 'mb-settings-toggle', href: '#', style: 'color:#9cf' }, 'settings');
    gear.addEventListener('click', (e) => { e.preventDefault(); formEl.style.display = formEl.style.display === 'none' ? 'block' : 'none'; });
    markEl = el('a', { id: 'mb-bookmark', href: '#', style: 'display:none;color:#9cf' }, '+ bookmark');
    markEl.addEventListener('click', (e) => { e.preventDefault(); addBookmark(); });
    row.append(emberEl, statusEl, markEl, gear);
    formEl = el('div', { id: 'mb-settings', style: 'display:none;margin-top:6px' });
    const url = el('input', { id: 'mb-url', type: 'url', placeholder: 'Backend URL', style: 'width:100%;margin:2px 0' });
    const tok = el('input', { id: 'mb-token', type: 'password', placeholder: 'Token (mb_...)', style: 'width:100%;margin:2px 0', autocomplete: 'off' });
    const save = el('button', { id: 'mb-save', type: 'button' }, 'Save');
    save.addEventListener('click', () => {
      GM_setValue(KEY.base, url.value.trim().replace(/\/+$/, ''));
      GM_setValue(KEY.token, tok.value.trim());
      authBlocked = false; attempt = 0;
      formEl.style.display = 'none';
      refreshBookmarks(true); flush();
    });
    url.value = settings().base;
    tok.value = settings().token;
    formEl.append(el('label', {}, 'Backend URL'), url, el('label', {}, 'Token'), tok, save);
    panel.append(row, formEl);
    toastEl = el('div', { id: 'mb-toast', role: 'alert', style: 'display:none;position:fixed;right:12px;bottom:64px;z-index:2147483647;background:#8a1c1c;color:#fff;padding:8px 12px;border-radius:6px;font:13px system-ui,sans-serif;max-width:360px' });
    document.body.append(panel, toastEl);
  }
  let toastTimer = null;
  function toast(msg) {
    if (!toastEl) return;
    toastEl.textContent = msg;
    toastEl.style.display = 'block';
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toastEl.style.display = 'none'; }, 8000);
  }
  function render() {
    if (!statusEl) return;
    const n = loadQueue().length;
    statusEl.textContent = !settings().token ? 'add your token' : authBlocked ? 'token refused' : n ? '⟳ ' + n + ' pending' : '✓';
    const list = cachedBookmarks().list;
    const b = current && list.find((x) => x.site === current.site && x.series_id === current.series_id);
    emberEl.style.display = isNew(b) ? 'inline' : 'none';
    markEl.style.display = onSeriesPage && !b && settings().token ? 'inline' : 'none';
    const newCount = list.filter(isNew).length;
    panel.title = newCount ? newCount + ' bookmarked Series with a New Chapter' : 'mangabookmark';
  }

  // addBookmark bookmarks this Series page by its URL (the backend
  // canonicalises it). The answer shows in the panel, not as a toast.
  async function addBookmark() {
    markEl.textContent = '…';
    try {
      const res = await request('POST', '/api/bookmarks', { url: location.href });
      if (res.status === 200 || res.status === 201) {
        const c = cachedBookmarks();
        c.list.push(JSON.parse(res.text));
        setJSON(KEY.bookmarks, c);
        markEl.textContent = '+ bookmark';
      } else if (res.status === 401) {
        authBlocked = true;
        toast('mangabookmark: your token was refused (401). Log in again and paste the new token in settings.');
      } else if (res.status === 400) {
        toast('mangabookmark: the server refused the bookmark: ' + errorText(res));
        markEl.textContent = '+ bookmark';
      } else {
        markEl.textContent = 'not bookmarked: ' + errorText(res);
      }
    } catch (e) {
      markEl.textContent = 'offline: try again';
    }
    render();
  }

  // ---- start ---------------------------------------------------------------
  function start() {
    if (!siteFor(new URL(location.href))) return;
    buildPanel();
    hookHistory();
    W.addEventListener('online', () => { attempt = 0; flush(); });
    document.addEventListener('visibilitychange', () => { if (!document.hidden) flush(); });
    detect();
    refreshBookmarks(false);
    flush();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
