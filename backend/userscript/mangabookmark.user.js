// ==UserScript==
// @name         mangabookmark
// @namespace    __MB_BASE_URL__
// @version      1.0.0
// @description  Records the chapters you read on the six Sites, syncs them to your mangabookmark server and shows the ember on Series with a New Chapter.
// @author       mangabookmark
// @updateURL    __MB_BASE_URL__/userscript/mangabookmark.user.js
// @downloadURL  __MB_BASE_URL__/userscript/mangabookmark.user.js
// @match        https://kagane.to/*
// @match        https://www.kagane.to/*
// @match        https://kagane.org/*
// @match        https://www.kagane.org/*
// @match        https://comix.to/*
// @match        https://www.comix.to/*
// @match        https://comix.ws/*
// @match        https://www.comix.ws/*
// @match        https://natomanga.com/*
// @match        https://www.natomanga.com/*
// @match        https://nelomanga.net/*
// @match        https://www.nelomanga.net/*
// @match        https://manganato.gg/*
// @match        https://www.manganato.gg/*
// @match        https://mangakakalot.gg/*
// @match        https://www.mangakakalot.gg/*
// @match        https://mangakakalove.com/*
// @match        https://www.mangakakalove.com/*
// @match        https://mangadex.org/*
// @match        https://www.mangadex.org/*
// @match        https://weebcentral.com/*
// @match        https://www.weebcentral.com/*
// @match        https://mangapill.com/*
// @match        https://www.mangapill.com/*
// @connect      __MB_CONNECT_HOST__
// @grant        GM_xmlhttpRequest
// @grant        GM_getValue
// @grant        GM_setValue
// @grant        GM_registerMenuCommand
// @run-at       document-idle
// @noframes
// ==/UserScript==

/* global GM_xmlhttpRequest, GM_getValue, GM_setValue, GM_registerMenuCommand, unsafeWindow */
(function () {
  'use strict';

  // ---- constants -----------------------------------------------------------
  const DEFAULT_BASE_URL = '__MB_BASE_URL__';
  const QUEUE_MAX = 200; // reads kept while the backend is unreachable
  const BATCH_MAX = 50; // reads per POST /api/progress
  const RETRY_MIN_MS = 2000;
  const RETRY_MAX_MS = 5 * 60 * 1000;
  const BOOKMARKS_TTL_MS = 15 * 60 * 1000;
  const DETECT_MAX_MS = 30000; // follow a rendering chapter page this long
  const DETECT_GAP_MS = 250; // at most one look per gap while the page changes
  const TOKEN_REFUSED = 'mangabookmark: your token was refused (401). Log in again and set the new token from the userscript manager\u2019s menu (Set token…).';
  const KEY = { queue: 'mb_queue', bookmarks: 'mb_bookmarks', base: 'mb_base_url', token: 'mb_token' };

  // The script reads nothing a page script can set: no page globals. The
  // page's own window is used only to hook its history (SPA navigation).
  const PAGE = typeof unsafeWindow !== 'undefined' ? unsafeWindow : window;

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
  // Words before a number that do not name a chapter ("Vol. 3", "Page 4").
  const NOT_CHAPTER = /^(?:vol|volume|season|part|page|pg|book|arc|s|v)$/i;
  const NUM = '(\\d{1,6}(?:\\.\\d{1,4})?)(?![\\d.]|\\s*\\/)';
  // numberFromLabel reads "Chapter 12", "Ch. 105.5" or "Episode 3" in any
  // text. With label set the text is a chapter's own label, whose word
  // varies per Series ("Episode 139.5", "Navigation 67.5", "Vol. 2, Ch. 9"):
  // the number after the first word that is not a volume's or a page's.
  // "Epilogue" or "Oneshot" has no number.
  function numberFromLabel(text, label) {
    const t = String(text || '').slice(0, 300);
    let m = new RegExp('(?:^|[^\\p{L}])(?:chapter|chap|ch|episode|ep)\\.?\\s*[:#]?\\s*' + NUM, 'iu').exec(t);
    if (m) return normNumber(m[1]);
    if (!label) return null;
    const re = new RegExp('(\\p{L}[\\p{L}\']*)\\.?\\s*[:#]?\\s*' + NUM, 'gu');
    while ((m = re.exec(t))) {
      if (!NOT_CHAPTER.test(m[1])) return normNumber(m[2]);
    }
    return null;
  }
  function seg(u) { return u.pathname.split('/').filter(Boolean).map((p) => { try { return decodeURIComponent(p); } catch (e) { return p; } }); }
  function pathOf(a) {
    try { return new URL(a.getAttribute('href'), location.href).pathname; } catch (e) { return ''; }
  }
  // linkMatch is the first match of re on the path of a link found by one
  // of sels, in order (the Site's own Series link first).
  function linkMatch(doc, sels, re) {
    for (const sel of sels) {
      for (const a of doc.querySelectorAll(sel)) {
        const m = re.exec(pathOf(a));
        if (m) return m;
      }
    }
    return null;
  }
  function firstText(doc, sels) {
    for (const sel of sels) {
      const e = doc.querySelector(sel);
      const t = e && (e.textContent || '').trim();
      if (t) return t;
    }
    return '';
  }
  // inPage finds re in the page's inline scripts and x-data attributes.
  function inPage(doc, re) {
    for (const e of doc.querySelectorAll('script:not([src]), [x-data]')) {
      const m = re.exec(e.tagName === 'SCRIPT' ? e.textContent || '' : e.getAttribute('x-data') || '');
      if (m) return m;
    }
    return null;
  }
  function metaContent(doc, name) {
    const e = doc.querySelector('meta[property="' + name + '"], meta[name="' + name + '"]');
    return e ? e.getAttribute('content') || '' : '';
  }

  // ---- evidence left over from the previous chapter -------------------------
  // A single-page app changes the URL first and its page later: until then
  // the title and header still name the chapter being left. Every text a
  // number is read from goes through fresh(source, text): at a navigation
  // the texts the page shows (read with the destination's rules, before
  // the URL changes where the browser says so) are kept as stale, and a
  // text still equal to its stale value is no evidence about the new
  // chapter. URL rules and page data keyed by the chapter's own id (Kagane's
  // series API) need no such check.
  // The stale texts hold only for the chapter they were taken for: a
  // reader turning pages (/chapter/{id}/2) stays on the same chapter.
  let staleText = {}; // source -> the text it showed when the URL changed
  let staleFor = ''; // chapterKey of the destination staleText is for
  let snapping = null; // while taking a snapshot: source -> text
  let lookedText = {}; // the texts the last look saw, the fallback snapshot
  let lookedFor = ''; // chapterKey of the page the last look saw
  function fresh(source, text) {
    const t = String(text || '');
    // While texts are collected every source is read: none gives a number.
    if (snapping) { snapping[source] = t; return ''; }
    return t && staleFor === chapterKey(location.href) && staleText[source] === t ? '' : t;
  }
  // textsOf is every text the rules of chapter URL u read on the page now.
  function textsOf(u) {
    const site = siteFor(u);
    snapping = {};
    try { if (site) site.chapter(u, document); } catch (e) { /* a page in flux */ }
    const got = snapping;
    snapping = null;
    return got;
  }
  // chapterKey names the chapter a URL shows: MangaDex keeps its page
  // number in the path, the other Sites one chapter per path.
  function chapterKey(href) {
    try {
      const u = new URL(href, location.href);
      const s = seg(u);
      return bareHost(u.host) + '/' + (bareHost(u.host) === 'mangadex.org' ? s.slice(0, 2) : s).join('/').toLowerCase();
    } catch (e) { return ''; }
  }
  // snapshot reads the page as it is now with the rules of the chapter
  // URL dest, just before the browser shows dest: what it reads is stale.
  function snapshot(dest) {
    const key = chapterKey(dest);
    if (!key || key === chapterKey(location.href)) return;
    let u;
    try { u = new URL(dest, location.href); } catch (e) { return; }
    staleText = textsOf(u);
    staleFor = key;
  }
  // staleAfterNavigation is the fallback where the browser gave no notice
  // before the URL changed: the texts the last look saw on the page left.
  function staleAfterNavigation() {
    const key = chapterKey(location.href);
    if (staleFor === key || lookedFor === key) return;
    staleText = lookedText;
    staleFor = key;
  }

  // ---- the Sites: same URL rules as the backend's canonicaliser -----------
  // chapter(u, doc) returns {series_id, number} on a chapter page (either
  // null while the page has not shown it), else null. The reader page
  // shapes each rule follows are listed in testdata/README.md.
  const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
  const UUID_RE = new RegExp('^' + UUID + '$', 'i');
  const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
  const ULID_RE = new RegExp('^' + ULID + '$', 'i');
  const SITES = [
    { name: 'kagane', hosts: ['kagane.to', 'kagane.org'],
      // /series/{id}/reader/{bookId}: the book's number is in the Site's own
      // series API; the reader header's label when the API cannot say.
      chapter(u, doc) {
        const s = seg(u);
        if (s[0] !== 'series' || s[2] !== 'reader' || !s[1] || !s[3]) return null;
        const api = kaganeNumber(s[1], s[3]);
        if (api !== null) return { series_id: s[1].toLowerCase(), number: api || null };
        const n = numberFromLabel(fresh('header', firstText(doc, ['.reader-header [class*="chapter"]', '[class*="chapter-title"]', '.reader-content h1', '.reader-content h2'])), true) ||
          numberFromLabel(fresh('title', doc.title)) || numberFromLabel(fresh('h1', firstText(doc, ['h1', 'h2'])));
        return { series_id: s[1].toLowerCase(), number: n };
      } },
    { name: 'comix', hosts: ['comix.to', 'comix.ws'],
      // /title/{hid}-{slug}/{chapterId}-chapter-{n}; the id is hid-slug
      chapter(u) {
        const s = seg(u);
        if (s[0] !== 'title' || !s[1] || !/^\d+-chapter-/i.test(s[2] || '')) return null;
        const id = s[1].toLowerCase().replace(/^-+|-+$/g, '');
        return { series_id: id || null, number: numberFromSlug(s[2]) };
      } },
    { name: 'natomanga', hosts: ['natomanga.com', 'nelomanga.net', 'manganato.gg', 'mangakakalot.gg', 'mangakakalove.com'],
      // /manga/{slug}/chapter-{n}; the page's chapter_name as a fallback
      chapter(u, doc) {
        const s = seg(u);
        if (s[0] !== 'manga' || !s[1] || !/^chapter[-_]/i.test(s[2] || '')) return null;
        const js = inPage(doc, /chapter_name\s*=\s*["']([^"']{1,200})["']/);
        return { series_id: s[1].toLowerCase(), number: numberFromSlug(s[2]) || (js && numberFromLabel(fresh('chapter_name', js[1]), true)) };
      } },
    { name: 'mangadex', hosts: ['mangadex.org'],
      // /chapter/{uuid}[/{page}]: a single-page app; the Series is its link
      // to /title/{uuid}, the number its "Vol. 1, Ch. 12" header.
      chapter(u, doc) {
        const s = seg(u);
        if (s[0] !== 'chapter' || !UUID_RE.test(s[1] || '')) return null;
        const m = linkMatch(doc, ['a.reader--header-manga[href]', 'a.text-primary[href^="/title/"]', 'a[href*="/title/"]'],
          new RegExp('^/(?:title|manga)/(' + UUID + ')(?:/|$)', 'i'));
        const n = numberFromLabel(fresh('header', firstText(doc, ['.reader--meta.chapter', '.reader--header-meta .chapter'])), true) ||
          numberFromLabel(fresh('og', metaContent(doc, 'og:title'))) || numberFromLabel(fresh('title', doc.title));
        return { series_id: m ? m[1].toLowerCase() : null, number: n };
      } },
    { name: 'weebcentral', hosts: ['weebcentral.com'],
      // /chapters/{ULID}: the page names its Series (series_id in its
      // script, and a link to /series/{ULID}) and its chapter's number.
      chapter(u, doc) {
        const s = seg(u);
        if (s[0] !== 'chapters' || !ULID_RE.test(s[1] || '')) return null;
        const js = inPage(doc, new RegExp('[\'"]series_id[\'"]\\s*:\\s*[\'"](' + ULID + ')[\'"]', 'i'));
        const m = js || linkMatch(doc, ['main section a.btn-ghost[href]', 'a[href*="/series/"]'], new RegExp('^/series/(' + ULID + ')(?:/|$)', 'i'));
        const num = inPage(doc, /['"]number['"]\s*:\s*['"](\d{1,6}(?:\.\d{1,4})?)['"]/);
        const n = (num && normNumber(fresh('number', num[1]))) ||
          numberFromLabel(fresh('header', firstText(doc, ['#selected_chapter', 'button[hx-get*="chapter-select"]'])), true) ||
          numberFromLabel(fresh('title', doc.title)) || numberFromLabel(fresh('h1', firstText(doc, ['main h1', 'h1'])));
        return { series_id: m ? m[1].toUpperCase() : null, number: n };
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
        return { series_id: m[1], number: n || numberFromSlug(s[2]) || numberFromLabel(fresh('h1', firstText(doc, ['h1']))) };
      } },
  ];

  // kaganeNumber is the chapter_no of a Kagane book from the series API
  // (/api/v2/series/{id}: series_books[].book_id, chapter_no), fetched once
  // per Series from the page's own origin: "" while the answer is awaited,
  // null when the API cannot say (then the page's label decides).
  const kaganeBooks = {};
  function kaganeNumber(seriesId, bookId) {
    const key = seriesId.toLowerCase();
    const c = kaganeBooks[key];
    if (c === undefined) {
      kaganeBooks[key] = 'pending';
      fetch('/api/v2/series/' + encodeURIComponent(seriesId), { credentials: 'include', headers: { Accept: 'application/json' } })
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error('HTTP ' + r.status))))
        .then((d) => {
          const m = {};
          (Array.isArray(d && d.series_books) ? d.series_books : []).forEach((b) => {
            const n = b && b.book_id && b.chapter_no != null ? normNumber(String(b.chapter_no)) : null;
            if (n) m[String(b.book_id).toLowerCase()] = n;
          });
          kaganeBooks[key] = m;
        })
        .catch(() => { kaganeBooks[key] = 'failed'; })
        .then(() => { if (observer) look(); });
      return '';
    }
    if (c === 'pending') return '';
    return (c !== 'failed' && c[bookId.toLowerCase()]) || null;
  }

  // series(s) returns the Series id of a Series page (the backend's
  // canonical form), else null: the ember and the bookmark button use it.
  // Fragments the Site loads into a Series page
  // (/series/{id}/full-chapter-list) are not Series pages.
  const FRAGMENT = /^(?:full-chapter-list|chapter-list|chapter-select|chapters|images|comments|reviews)$/i;
  const SERIES = {
    kagane: (s) => (s[0] === 'series' && s[1] && !s[2] ? s[1].toLowerCase() : null),
    comix: (s) => (s[0] === 'title' && s[1] && !s[2] ? s[1].toLowerCase().replace(/^-+|-+$/g, '') : null),
    natomanga: (s) => (s[0] === 'manga' && s[1] && !s[2] ? s[1].toLowerCase() : null),
    mangadex: (s) => ((s[0] === 'title' || s[0] === 'manga') && UUID_RE.test(s[1] || '') && s.length <= 3 && !FRAGMENT.test(s[2] || '') ? s[1].toLowerCase() : null),
    weebcentral: (s) => (s[0] === 'series' && ULID_RE.test(s[1] || '') && s.length <= 3 && !FRAGMENT.test(s[2] || '') ? s[1].toUpperCase() : null),
    mangapill: (s) => (s[0] === 'manga' && /^\d+$/.test(s[1] || '') && !/^0+$/.test(s[1]) && s.length <= 3 ? s[1].replace(/^0+/, '') : null),
  };

  function bareHost(h) { return String(h).toLowerCase().replace(/\.$/, '').replace(/^www\./, ''); }
  // siteFor finds the Site of this page by its host alone.
  function siteFor(u) {
    const h = bareHost(u.host);
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
  const refusedReads = {}; // chapter URL -> why the server refused its read

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
        (body.errors || []).forEach((e) => {
          const r = batch[e.index];
          console.warn('mangabookmark: read refused:', r, e.error);
          // The panel of the page read says so: never ✓ for a refused read.
          if (r && r.url) refusedReads[r.url] = String(e.error || 'refused').slice(0, 300);
        });
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
      toast(TOKEN_REFUSED);
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
      else if (res.status === 401) { authBlocked = true; toast(TOKEN_REFUSED); }
    } catch (e) { /* offline: the cache serves */ }
    render();
  }
  // isNew mirrors the server: a Latest Chapter beyond the Reader's Progress.
  // A member of a Work (work_id) is new by the Work's numbers, which only the
  // server knows (a read on another member ends it): its "new" is the answer,
  // and a read here that reaches this member's Latest ends it until the next
  // refresh says otherwise.
  function seriesNew(b) { return !!(b && b.latest && b.progress && cmpNumber(b.latest.number, b.progress.number) > 0); }
  function isNew(b) { return b && b.work_id != null ? !!b.new && seriesNew(b) : seriesNew(b); }
  // noteLocally moves the cached Progress so the ember answers offline too.
  function noteLocally(read) {
    const c = cachedBookmarks();
    let b = c.list.find((x) => x.site === read.site && x.series_id === read.series_id);
    if (!b) { b = { site: read.site, series_id: read.series_id, title: '', url: '', latest: null, progress: null, new: false }; c.list.push(b); }
    if (!b.progress || cmpNumber(read.number, b.progress.number) > 0) b.progress = { number: read.number, read_at: read.read_at };
    b.new = isNew(b);
    setJSON(KEY.bookmarks, c);
  }

  // ---- the Reader at the page ------------------------------------------------
  // A page script can push any chapter URL with history.pushState. A read is
  // recorded only once the Reader is seen at the page: it has been visible
  // for DWELL_MS since the URL last changed, and a real gesture (a wheel
  // turn, a key, a tap or a click: event.isTrusted, which no page script
  // can forge) came after that change.
  const DWELL_MS = 3000;
  const GESTURES = ['pointerdown', 'keydown', 'wheel', 'touchstart'];
  let urlAt = Date.now(), gestureAt = 0, shownMs = 0, shownSince = document.hidden ? 0 : Date.now(), dwellTimer = null;
  function shownFor() { return shownMs + (shownSince ? Date.now() - shownSince : 0); }
  function engaged() { return gestureAt > urlAt && shownFor() >= DWELL_MS; }
  function resetEngagement() {
    urlAt = Date.now(); gestureAt = 0; shownMs = 0;
    shownSince = document.hidden ? 0 : urlAt;
  }
  function onGesture(e) {
    if (!e.isTrusted) return;
    gestureAt = Math.max(Date.now(), urlAt + 1);
    if (readState && readState.waiting) look();
  }
  function onVisibility() {
    if (document.hidden) { if (shownSince) shownMs += Date.now() - shownSince; shownSince = 0; }
    else if (!shownSince) shownSince = Date.now();
    if (readState && readState.waiting) look();
  }
  // lookAfterDwell looks again when the page will have been shown long enough.
  function lookAfterDwell() {
    clearTimeout(dwellTimer);
    if (shownSince) dwellTimer = setTimeout(look, Math.max(0, DWELL_MS - shownFor()) + 20);
  }

  // ---- page recognition: follows the page as it renders ---------------------
  // A chapter page is looked at on load, on every navigation (history hooks,
  // popstate, the Navigation API, a URL watch) and on every change of the
  // page (MutationObserver) for DETECT_MAX_MS; each new reading is recorded
  // (Progress only moves forward, so a stale one costs nothing).
  let current = null; // {site, series_id} of this page, for the ember
  let onSeriesPage = false; // a Series page: the bookmark button shows
  let lastRecorded = '';
  let readState = null; // null, or {failed, waiting, why} on a chapter page not read (yet)
  let detectUntil = 0, deadlineTimer = null, observer = null, lookPending = false;
  let seenHref = location.href;

  function look() {
    // A URL change not noticed yet is noticed first, so the page left
    // behind is known stale before anything is read.
    if (location.href !== seenHref) { onNavigate(); return; }
    const u = new URL(location.href);
    const site = siteFor(u);
    lookedText = textsOf(u);
    lookedFor = chapterKey(u.href);
    const got = site ? site.chapter(u, document) : null;
    const seriesPage = site && !got ? SERIES[site.name](seg(u)) : null;
    current = got && got.series_id ? { site: site.name, series_id: got.series_id }
      : seriesPage ? { site: site.name, series_id: seriesPage } : null;
    onSeriesPage = !!seriesPage;
    const here = '|' + chapterKey(u.href);
    if (!got) {
      readState = null;
      stopWatching();
    } else if (got.series_id && got.number && lastRecorded === site.name + '|' + got.series_id + '|' + got.number + here) {
      readState = null; // this reading is recorded already
      if (Date.now() >= detectUntil) stopWatching();
    } else if (got.series_id && got.number && !engaged()) {
      // Found, but no sign yet that the Reader is reading it.
      readState = { failed: false, waiting: true, why: 'waiting for you to read the page (scroll, tap or press a key)' };
      lookAfterDwell();
    } else if (got.series_id && got.number) {
      // Keep watching until the window ends: after an SPA navigation the
      // page may still show the previous chapter for a moment.
      readState = null;
      if (Date.now() >= detectUntil) stopWatching();
      lastRecorded = site.name + '|' + got.series_id + '|' + got.number + here;
      const read = { site: site.name, series_id: got.series_id, number: got.number, url: u.href, read_at: new Date().toISOString() };
      noteLocally(read);
      enqueue(read);
      flush();
    } else if (lastRecorded.endsWith(here)) {
      // Read already; the page has since hidden what it showed.
      readState = null;
      if (Date.now() >= detectUntil) stopWatching();
    } else {
      const why = !got.series_id ? 'no link to its Series was found on this chapter page'
        : 'no chapter number for this chapter was found on the page';
      const failed = Date.now() >= detectUntil;
      readState = { failed, waiting: false, why };
      if (failed) stopWatching();
    }
    render();
  }
  function startWatching() {
    detectUntil = Date.now() + DETECT_MAX_MS;
    if (!observer) {
      observer = new MutationObserver(onMutation);
      observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['href', 'content', 'x-data'] });
    }
    clearTimeout(deadlineTimer);
    deadlineTimer = setTimeout(look, DETECT_MAX_MS + 50);
    look();
  }
  function stopWatching() {
    if (observer) { observer.disconnect(); observer = null; }
    clearTimeout(deadlineTimer);
  }
  function onMutation() {
    // The panel lives in a closed shadow root: its changes never reach here.
    if (lookPending) return;
    lookPending = true;
    setTimeout(() => {
      lookPending = false;
      if (location.href !== seenHref) onNavigate();
      else if (observer) look();
    }, DETECT_GAP_MS);
  }
  function hookHistory() {
    try {
      const h = PAGE.history;
      ['pushState', 'replaceState'].forEach((fn) => {
        const orig = h[fn];
        h[fn] = function (state, title, url) {
          if (url !== undefined && url !== null) snapshot(String(url));
          const out = orig.apply(this, arguments);
          setTimeout(onNavigate, 0);
          return out;
        };
      });
    } catch (e) { /* a locked-down history: the other signals remain */ }
    window.addEventListener('popstate', () => setTimeout(onNavigate, 0));
    const nav = window.navigation;
    if (nav && typeof nav.addEventListener === 'function') {
      // navigate fires before the URL changes (pushState included): the
      // page still shows the chapter being left.
      nav.addEventListener('navigate', (e) => { if (e.destination && e.destination.url) snapshot(e.destination.url); });
      nav.addEventListener('currententrychange', () => setTimeout(onNavigate, 0));
    }
    // Some routers keep their own reference to pushState: watch the URL too.
    setInterval(onNavigate, 1000);
  }
  function onNavigate() {
    if (location.href === seenHref) return;
    const sameChapter = chapterKey(location.href) === chapterKey(seenHref);
    seenHref = location.href;
    if (!sameChapter) { staleAfterNavigation(); resetEngagement(); }
    startWatching();
  }

  // ---- settings: only the Reader changes them --------------------------------
  // Both come only from the userscript manager's menu, in the browser's own
  // dialogs: no field in the page can be read, pre-filled or clickjacked.
  // A new backend URL is confirmed in a second dialog.
  function tokenHint() {
    const t = settings().token;
    return t ? 'token ••••' + t.slice(-4) : 'no token set';
  }
  function applySettings(rawBase, rawToken) {
    const cur = settings();
    const base = String(rawBase || '').trim().replace(/\/+$/, '');
    const token = String(rawToken || '').trim();
    if (base && base !== cur.base) {
      let ok = false;
      try { const u = new URL(base); ok = (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname; } catch (e) { ok = false; }
      if (!ok) {
        toast('mangabookmark: "' + base.slice(0, 100) + '" is not an http(s) URL; the backend URL is unchanged.');
        return false;
      }
      if (!confirm('mangabookmark: send your token to ' + base + ' from now on?\n\nSay yes only if you typed this address yourself.')) return false;
      GM_setValue(KEY.base, base);
    }
    if (token) {
      if (!/^mb_[A-Za-z0-9_-]{20,200}$/.test(token)) {
        toast('mangabookmark: that is not a mangabookmark token (it starts with mb_); the token is unchanged.');
        return false;
      }
      GM_setValue(KEY.token, token);
    }
    authBlocked = false; attempt = 0;
    refreshBookmarks(true); flush();
    return true;
  }
  function registerMenu() {
    if (typeof GM_registerMenuCommand !== 'function') return;
    GM_registerMenuCommand('Set backend URL…', () => {
      const v = prompt('mangabookmark backend URL', settings().base);
      if (v !== null) { applySettings(v, ''); render(); }
    });
    GM_registerMenuCommand('Set token…', () => {
      const v = prompt('mangabookmark token (mb_…), from your server\'s token page: it stays in the userscript manager', '');
      if (v) { applySettings('', v); render(); }
    });
  }

  // ---- the panel and toasts ---------------------------------------------------
  // The panel is built from this script's own world in a closed shadow root:
  // the page can neither read it (which Series are bookmarked, the status)
  // nor restyle or script what is inside. Its host has a fixed size and an
  // opaque box, so what shows inside never changes the host's geometry.
  let host, panel, statusEl, emberEl, markEl, labelEl, toastEl;
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text) e.textContent = text;
    return e;
  }
  const HOST_STYLE = 'all:initial !important;position:fixed !important;right:12px !important;bottom:12px !important;' +
    'width:300px !important;height:28px !important;z-index:2147483647 !important;display:block !important;' +
    'overflow:visible !important;background:#1d1d1f !important;border-radius:8px !important;pointer-events:auto !important';
  function buildPanel() {
    host = el('mangabookmark-panel', { style: HOST_STYLE });
    const root = host.attachShadow({ mode: 'closed' });
    panel = el('div', { id: 'mb-panel', style: 'box-sizing:border-box;width:300px;height:28px;overflow:hidden;white-space:nowrap;font:13px/28px system-ui,sans-serif;color:#eee;padding:0 10px;display:flex;gap:8px;align-items:center' });
    labelEl = el('b', { id: 'mb-label' }, 'mb');
    emberEl = el('span', { id: 'mb-ember', title: 'New Chapter', style: 'display:none;color:#ff7a1a' }, '🔥 New Chapter');
    statusEl = el('span', { id: 'mb-status', style: 'overflow:hidden;text-overflow:ellipsis' });
    markEl = el('a', { id: 'mb-bookmark', href: '#', style: 'display:none;color:#9cf' }, '+ bookmark');
    markEl.addEventListener('click', (e) => {
      e.preventDefault();
      if (!e.isTrusted) return;
      if (!hostAsSet(e)) {
        // Short, so the link stays inside the 300 px panel for the next click.
        markEl.textContent = '⚠ click again';
        markEl.title = 'The page moved this panel, so that click was not counted: click + bookmark again';
        return;
      }
      addBookmark();
    });
    panel.append(labelEl, emberEl, statusEl, markEl);
    toastEl = el('div', { id: 'mb-toast', role: 'alert', style: 'display:none;position:fixed;right:12px;bottom:48px;background:#8a1c1c;color:#fff;padding:8px 12px;border-radius:6px;font:13px system-ui,sans-serif;max-width:360px' });
    root.append(panel, toastEl);
    document.documentElement.append(host);
  }
  // hostAsSet tells a click the Reader aimed at the panel from one the page
  // steered there. The host is page DOM, so a page script can restyle it
  // (scale it over the page, make it transparent) or its ancestors, so that
  // a click anywhere lands on "+ bookmark". A click counts only while the
  // host is where and how this script put it: its own inline style, a child
  // of <html>, 300×28 in the bottom-right corner, under the click, and
  // neither it nor an ancestor faded, filtered, transformed or hidden.
  function hostAsSet(e) {
    if (!host.isConnected || host.parentNode !== document.documentElement || host.getAttribute('style') !== HOST_STYLE) return false;
    const r = host.getBoundingClientRect();
    const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
    const near = (a, b) => Math.abs(a - b) < 1;
    if (!near(r.width, 300) || !near(r.height, 28) || !near(r.right, vw - 12) || !near(r.bottom, vh - 12)) return false;
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) return false;
    for (let n = host; n && n.nodeType === 1; n = n.parentElement) {
      const cs = getComputedStyle(n);
      if (cs.opacity !== '1' || cs.transform !== 'none' || cs.filter !== 'none' || cs.visibility !== 'visible' ||
          (cs.scale && cs.scale !== 'none') || (cs.rotate && cs.rotate !== 'none') || (cs.zoom && cs.zoom !== '1') ||
          cs.clipPath !== 'none' || cs.mixBlendMode !== 'normal') return false;
    }
    return true;
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
    const token = settings().token;
    const refused = !readState && refusedReads[location.href];
    if (refused) {
      statusEl.textContent = '⚠ not read';
      statusEl.title = 'The server refused this read: ' + refused;
    } else if (readState && readState.failed) {
      statusEl.textContent = '⚠ not read';
      statusEl.title = 'This chapter page was not read: ' + readState.why + '.';
    } else if (readState) {
      statusEl.textContent = '⋯ reading';
      statusEl.title = readState.waiting ? 'Not recorded yet: ' + readState.why + '.'
        : 'Waiting for the page to show its chapter: ' + readState.why + ' yet.';
    } else {
      statusEl.textContent = !token ? 'add your token' : authBlocked ? 'token refused' : n ? '⟳ ' + n + ' pending' : '✓';
      statusEl.title = !token || authBlocked ? "Set your token from the userscript manager's menu: Set token…"
        : n ? n + ' reads wait to be sent' : 'mangabookmark';
    }
    labelEl.title = tokenHint();
    const list = cachedBookmarks().list;
    const b = current && list.find((x) => x.site === current.site && x.series_id === current.series_id);
    emberEl.style.display = isNew(b) ? 'inline' : 'none';
    markEl.style.display = onSeriesPage && !b && token ? 'inline' : 'none';
    const newCount = list.filter(isNew).length;
    panel.title = newCount ? newCount + ' bookmarked Series with a New Chapter' : 'mangabookmark';
  }

  // addBookmark bookmarks this Series page by its URL (the backend
  // canonicalises it). The answer shows in the panel, not as a toast.
  async function addBookmark() {
    markEl.textContent = '…';
    markEl.title = '';
    try {
      const res = await request('POST', '/api/bookmarks', { url: location.href });
      if (res.status === 200 || res.status === 201) {
        const c = cachedBookmarks();
        c.list.push(JSON.parse(res.text));
        setJSON(KEY.bookmarks, c);
        markEl.textContent = '+ bookmark';
      } else if (res.status === 401) {
        authBlocked = true;
        toast(TOKEN_REFUSED);
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
    registerMenu();
    hookHistory();
    GESTURES.forEach((t) => window.addEventListener(t, onGesture, { capture: true, passive: true }));
    window.addEventListener('online', () => { attempt = 0; flush(); });
    document.addEventListener('visibilitychange', () => { onVisibility(); if (!document.hidden) flush(); });
    startWatching();
    refreshBookmarks(false);
    flush();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
