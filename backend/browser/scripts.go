package browser

// Scripts run inside the tab with Runtime.evaluate. They are plain ES2020
// and return JSON-able values. All but one run in the isolated world
// (evalIsolated), out of the page scripts' reach: the reads (htmlJS,
// fetchJS), the wait's probe (probeJS) and the tag that tells the next
// document from the one left (markJS, unmarkJS). A page that redefines
// what they call (Document.prototype's readyState or contentType getters,
// outerHTML, fetch) cannot make their answers false or large. Only
// cfGlobalJS runs in the page's own world, where Cloudflare's globals are,
// and its answer is one boolean whatever the page does.

// markJS tags the document that is about to be left, so the wait can tell
// it from the one the navigation brings. The tag lives in the isolated
// world's global, which Chrome keeps for the document's life (the world is
// found again by its name) and the page cannot see or set.
const markJS = `globalThis.__mangabookmarkPrev = true`

// unmarkJS clears the tag after a same-document navigation (a change of
// fragment only), which keeps the document.
const unmarkJS = `delete globalThis.__mangabookmarkPrev`

// cfGlobalJS reports whether the page's own world holds Cloudflare's
// challenge options (_cf_chl_opt), set by a script the probe cannot see
// into. It runs in the page's world, so it returns true or false and
// nothing else: a getter the page planted that throws is no challenge, and
// its error never leaves the page.
const cfGlobalJS = `(() => { try { return typeof window._cf_chl_opt !== 'undefined'; } catch (e) { return false; } })()`

// probeJS reports the state of the current document: whether it is the one
// the navigation brought (fresh), its readyState, whether it shows a
// challenge, its navigation status, URL and body size (once the body has
// all come: navigation timing's decodedBodySize). It runs in the isolated world,
// so the values are the document's own, never a page script's getters.
// Strong signs (the titles, Cloudflare's error elements, _cf_chl_opt and
// __cf_chl markers in the scripts, and cfGlobalJS's answer) count on any
// status; a challenges.cloudflare.com script or frame counts only on the
// statuses challenges use (403, 429, 503), since ordinary pages embed
// Turnstile widgets too. A Site's own WAF interstitial (Comix's) counts
// when the document sits under /@waf/, or is titled exactly "Security
// check" and asks to verify you're human ("Security check" alone is
// ordinary English).
const probeJS = `(() => {
  const d = document;
  const nav = performance.getEntriesByType('navigation')[0];
  const status = nav && nav.responseStatus ? nav.responseStatus : 0;
  const title = (d.title || '').toLowerCase();
  let challenge = /just a moment|attention required|verify you are human|verifying you are human|checking your browser/.test(title)
    || location.pathname.startsWith('/@waf/')
    || (/^security check$/.test(title.trim()) && /verify you(?:'|\u2019| a)re human/i.test((d.body && d.body.innerText) || ''))
    || !!d.querySelector('#challenge-error-title, #challenge-error-text, #challenge-form, #cf-challenge-running, form[action*="__cf_chl"]');
  if (!challenge) {
    for (const s of d.scripts) {
      const text = (s.src || '') + ' ' + (s.textContent || '').slice(0, 65536);
      if (text.includes('__cf_chl') || text.includes('cf_chl_opt')) { challenge = true; break; }
    }
  }
  if (!challenge && (status === 403 || status === 429 || status === 503)) {
    challenge = !!d.querySelector('script[src*="challenges.cloudflare.com"], iframe[src*="challenges.cloudflare.com"]');
  }
  return {
    fresh: !globalThis.__mangabookmarkPrev,
    state: d.readyState,
    challenge,
    status,
    url: location.href,
    contentType: d.contentType || '',
    body: nav && nav.responseEnd > 0 ? nav.decodedBodySize : 0,
  };
})()`

// htmlJS is called with (limit). It serialises the document with its
// doctype, together with the URL, navigation status and content type of
// that same document: one evaluation runs in one document, so a page that
// sends the tab elsewhere cannot have another document's HTML read under
// its own URL. HTML longer than limit characters (so over limit bytes) is
// not returned: over gives its length, and the answer stays small.
const htmlJS = `(limit) => {
  const d = document;
  const nav = performance.getEntriesByType('navigation')[0];
  const head = d.doctype ? new XMLSerializer().serializeToString(d.doctype) + '\n' : '';
  const html = head + (d.documentElement ? d.documentElement.outerHTML : '');
  const over = html.length > limit;
  return {
    url: location.href,
    status: nav && nav.responseStatus ? nav.responseStatus : 0,
    contentType: d.contentType || '',
    html: over ? '' : html,
    over: over ? html.length : 0,
  };
}`

// fetchJS is called with (url, accept, limit, timeoutMs, method,
// send, contentType). It fetches url with method ("" is GET) and, when
// contentType is set, send as the body of that type from inside the page (same
// origin, the page's cookies stay in Chrome),
// stops reading past limit bytes (over: true, no body) and returns status,
// headers, final URL and the body as base64 so binary bodies survive. page
// is the URL of the document the fetch ran from, read in the same
// evaluation; a failed fetch comes back as error, with page, so the caller
// can tell a page that left the Site from a Site that failed.
const fetchJS = `async (url, accept, limit, timeoutMs, method, send, contentType) => {
  const page = location.href;
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const init = {credentials: 'same-origin', signal: ctl.signal, headers: {}};
    if (accept) init.headers['Accept'] = accept;
    if (method) init.method = method;
    if (contentType) { init.headers['Content-Type'] = contentType; init.body = send; }
    const r = await fetch(url, init);
    const headers = {};
    r.headers.forEach((v, k) => { headers[k] = v; });
    const parts = [];
    let n = 0, over = false;
    if (r.body) {
      const reader = r.body.getReader();
      for (;;) {
        const {done, value} = await reader.read();
        if (done) break;
        parts.push(value);
        n += value.length;
        if (n > limit) { over = true; await reader.cancel(); break; }
      }
    }
    const all = new Uint8Array(n);
    let off = 0;
    for (const p of parts) { all.set(p, off); off += p.length; }
    const body = over ? new Uint8Array(0) : all;
    let b64;
    if (typeof body.toBase64 === 'function') {
      b64 = body.toBase64();
    } else {
      let bin = '';
      for (let i = 0; i < body.length; i += 0x8000) {
        bin += String.fromCharCode.apply(null, body.subarray(i, i + 0x8000));
      }
      b64 = btoa(bin);
    }
    return {page, status: r.status, headers, url: r.url, body: b64, over};
  } catch (e) {
    return {page, error: String((e && e.stack) || e)};
  } finally {
    clearTimeout(timer);
  }
}`
