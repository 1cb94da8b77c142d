// live.js: the browser half of Fitz live views (spec views.md §1.4, §2). It joins every live
// root over one WebSocket, forwards DOM events as `ev` frames and applies `full`/`patch` frames.
// Plain script with no dependencies and no inline code, so it is cacheable and CSP-friendly;
// the DOM attributes it reads are listed in README.md beside this file.
(() => {
  'use strict';

  const WS_PATH = '/_fitz/live/ws';
  // A page may ask for another heartbeat (`data-fz-hb` on this script's tag): tests that shorten
  // the server's presence timeout do.
  const HEARTBEAT_MS = Number(document.currentScript && document.currentScript.getAttribute('data-fz-hb')) || 25000;
  const BACKOFF_START_MS = 200;
  const BACKOFF_CAP_MS = 10000;
  const TOAST_MS = 6000;
  const EVENTS = ['click', 'submit', 'input', 'change', 'keydown', 'keyup', 'focus', 'blur'];
  // Events whose rate the `debounce` modifier governs (§1.4); click and submit fire at once.
  const DEBOUNCED = new Set(['input', 'change', 'keydown', 'keyup']);
  const BIND_EVENT = 'fz:bind';

  /** @type {Map<string, {root: HTMLElement, rev: number, resyncing: boolean}>} */
  const views = new Map();
  const pending = new Map();        // ref -> {el, buttons}
  const pendingCount = new Map();   // element -> refs still waiting for their ack
  const timers = new Map();         // element -> {eventName -> {timer, fire}}: debounce/throttle
  let socket = null;
  let connected = false;
  let stopped = false;              // after redirect/reload: never reconnect
  let attempt = 0;
  let reconnectTimer = null;
  let nextRef = 1;

  // ---------------------------------------------------------------- socket

  function socketUrl() {
    return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + WS_PATH;
  }

  function connect() {
    reconnectTimer = null;
    if (stopped) return;
    const ws = new WebSocket(socketUrl());
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      connected = true;
      attempt = 0;
      // A reopen is a fresh mount on the server, so every root rejoins with its token.
      for (const [v, view] of views) {
        view.resyncing = false;
        view.root.classList.remove('fz-disconnected');
        const join = { t: 'join', v, tok: view.root.getAttribute('data-fz-token'), rev: view.rev };
        // The build that rendered the page: a server rebuilt since then answers `reload`.
        const build = view.root.getAttribute('data-fz-build');
        if (build) join.b = build;
        send(join);
      }
    };
    ws.onmessage = (msg) => { if (socket === ws) receive(msg.data); };
    ws.onclose = () => { if (socket === ws) lost(); };
    ws.onerror = () => { /* onclose follows and does the work */ };
  }

  function lost() {
    socket = null;
    connected = false;
    // After redirect/reload the page is going away: no banner flash on the way out.
    if (!stopped) for (const view of views.values()) view.root.classList.add('fz-disconnected');
    // No ack can arrive on a new socket for an old ref: release what waits for one.
    for (const ref of [...pending.keys()]) settle(ref);
    for (const perEvent of timers.values()) for (const t of Object.values(perEvent)) clearTimeout(t.timer);
    timers.clear();
    if (stopped || reconnectTimer) return;
    // Exponential backoff with jitter below the cap, so a restarted server is not hit by
    // every tab in the same millisecond and no wait exceeds the cap.
    const base = Math.min(BACKOFF_CAP_MS, BACKOFF_START_MS * 2 ** attempt);
    attempt++;
    reconnectTimer = setTimeout(connect, base * (0.75 + Math.random() * 0.25));
  }

  function send(frame) {
    if (!connected || !socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  function stop() {
    stopped = true;
    clearTimeout(reconnectTimer);
    if (socket) socket.close();
  }

  // ---------------------------------------------------------------- server frames

  function receive(data) {
    let f;
    try { f = JSON.parse(data); } catch { return; }
    if (!f || typeof f !== 'object') return;
    switch (f.t) {
      case 'full': onFull(f); break;
      case 'patch': onPatch(f); break;
      case 'ack': settle(f.ref); break;
      case 'redirect': onRedirect(f.to); break;
      case 'reload': stop(); location.reload(); break;
      case 'error': onError(f); break;
      case 'hb': break;
    }
  }

  function onFull(f) {
    const view = views.get(f.v);
    if (!view) return;
    morphRoot(view.root, String(f.html ?? ''));
    view.rev = f.rev;
    view.resyncing = false;
    view.root.classList.remove('fz-error');
  }

  function onPatch(f) {
    const view = views.get(f.v);
    if (!view || view.resyncing) return;   // frames before the awaited `full` are stale
    if (f.rev !== view.rev + 1) return resync(f.v, view);
    try {
      for (const op of f.ops || []) applyOp(view.root, op);
    } catch (err) {
      return resync(f.v, view);
    }
    view.rev = f.rev;
  }

  function resync(v, view) {
    view.resyncing = true;
    send({ t: 'resync', v });
  }

  function onRedirect(to) {
    let url;
    try { url = new URL(String(to), location.href); } catch { return; }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;  // never javascript:
    stop();
    location.assign(url.href);
  }

  function onError(f) {
    if (f.ref != null) settle(f.ref);
    const view = views.get(f.v);
    if (view && f.code === 'mount') view.root.classList.add('fz-error');
    toast(f.msg ? String(f.msg) : 'Something went wrong. Please try again.');
  }

  function toast(text) {
    const el = document.createElement('div');
    el.className = 'fz-toast';
    el.setAttribute('role', 'alert');
    el.textContent = text;   // never HTML: a message may echo user input
    document.body.appendChild(el);
    setTimeout(() => el.remove(), TOAST_MS);
  }

  // ---------------------------------------------------------------- ops (§2.3)

  // Children as the server counts them: its normalized tree has no comments.
  function children(node) {
    return Array.prototype.filter.call(node.childNodes, (n) => n.nodeType !== Node.COMMENT_NODE);
  }

  function keyed(parent, key) {
    for (const n of parent.children) if (n.getAttribute('data-fz-key') === String(key)) return n;
    throw new Error('no child with key ' + key);
  }

  function resolve(root, path) {
    let node = root;
    for (const seg of path) {
      if (seg !== null && typeof seg === 'object') node = keyed(node, seg.k);
      else node = children(node)[seg];
      if (!node) throw new Error('bad path ' + JSON.stringify(path));
    }
    return node;
  }

  function fragment(html) {
    const t = document.createElement('template');
    t.innerHTML = html;
    return t.content;
  }

  // Moves keep the node itself; moveBefore also keeps focus and selection where supported.
  function move(parent, node, before) {
    const focus = saveFocus();
    if (parent.moveBefore && node.isConnected && parent.isConnected) {
      try { parent.moveBefore(node, before); return; } catch { /* fall back below */ }
    }
    parent.insertBefore(node, before);
    restoreFocus(focus);
  }

  function applyOp(root, op) {
    const [kind, path] = op;
    switch (kind) {
      case 'text': {
        let node;
        try { node = resolve(root, path); } catch (err) {
          // An empty text node leaves no trace in parsed HTML: create it on first use.
          const parent = resolve(root, path.slice(0, -1));
          if (children(parent).length !== path[path.length - 1]) throw err;
          node = parent.appendChild(document.createTextNode(''));
        }
        if (node.nodeType === Node.TEXT_NODE) node.nodeValue = String(op[2]);
        else node.textContent = String(op[2]);
        return;
      }
      case 'attr': {
        const name = String(op[2]);
        if (/^on/i.test(name)) throw new Error('refusing event-handler attribute ' + name);
        resolve(root, path).setAttribute(name, String(op[3]));
        return;
      }
      case 'rmattr': resolve(root, path).removeAttribute(String(op[2])); return;
      case 'prop': {
        const el = resolve(root, path);
        const [, , name, val, force] = op;
        if (el === document.activeElement && !force) return;  // the user is typing there
        if (name === 'value') el.value = String(val);
        else if (name === 'checked' || name === 'selected') el[name] = val === true || val === 'true';
        else throw new Error('unknown prop ' + name);
        return;
      }
      case 'replace': {
        if (!path.length) throw new Error('the root is never replaced');
        const node = resolve(root, path);
        node.parentNode.replaceChild(fragment(String(op[2])), node);
        return;
      }
      case 'insert': {
        const parent = resolve(root, path);
        parent.insertBefore(fragment(String(op[3])), children(parent)[op[2]] || null);
        return;
      }
      case 'remove': {
        if (!path.length) throw new Error('the root is never removed');
        const node = resolve(root, path);
        node.parentNode.removeChild(node);
        return;
      }
      case 'kmove': {
        const parent = resolve(root, path);
        move(parent, keyed(parent, op[2]), op[3] == null ? null : keyed(parent, op[3]));
        return;
      }
      case 'kinsert': {
        const parent = resolve(root, path);
        parent.insertBefore(fragment(String(op[2])), op[3] == null ? null : keyed(parent, op[3]));
        return;
      }
      case 'kremove': {
        const parent = resolve(root, path);
        parent.removeChild(keyed(parent, op[2]));
        return;
      }
      default: throw new Error('unknown op ' + kind);
    }
  }

  // ---------------------------------------------------------------- morph (§2.4)

  function saveFocus() {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    let start = null, end = null, dir = null;
    try { start = el.selectionStart; end = el.selectionEnd; dir = el.selectionDirection; } catch { /* no caret */ }
    return { el, start, end, dir };
  }

  function restoreFocus(f) {
    if (!f || !f.el.isConnected) return;
    if (document.activeElement !== f.el) f.el.focus({ preventScroll: true });
    if (f.start != null && (f.el.selectionStart !== f.start || f.el.selectionEnd !== f.end)) {
      try { f.el.setSelectionRange(f.start, f.end, f.dir || 'none'); } catch { /* not a text control */ }
    }
  }

  function morphRoot(root, html) {
    const focus = saveFocus();
    const tpl = document.createElement('template');
    tpl.innerHTML = html;
    morphChildren(root, tpl.content, focus && focus.el);
    restoreFocus(focus);
  }

  function keyOf(n) {
    return n.nodeType === Node.ELEMENT_NODE ? n.getAttribute('data-fz-key') : null;
  }

  function sameKind(a, b) {
    return a.nodeType === b.nodeType && (a.nodeType !== Node.ELEMENT_NODE || a.tagName === b.tagName);
  }

  // Walks the new children in order, reusing old nodes that match by tag+key (keyed) or by
  // tag at the same position (unkeyed), so DOM state such as focus and JS properties survives.
  function morphChildren(oldParent, newParent, focused) {
    const byKey = new Map();
    for (const n of oldParent.children) {
      const k = keyOf(n);
      if (k !== null) byKey.set(k, n);
    }
    let cur = oldParent.firstChild;
    const skipComments = () => { while (cur && cur.nodeType === Node.COMMENT_NODE) { const c = cur; cur = cur.nextSibling; c.remove(); } };
    for (const n of Array.from(newParent.childNodes)) {
      if (n.nodeType === Node.COMMENT_NODE) continue;
      skipComments();
      const k = keyOf(n);
      let match = null;
      if (k !== null) {
        const old = byKey.get(k);
        if (old && old.tagName === n.tagName) { match = old; byKey.delete(k); }
      } else if (cur && keyOf(cur) === null && sameKind(cur, n)) {
        match = cur;
      }
      if (!match) {
        oldParent.insertBefore(n, cur);   // n leaves the template; the loop holds a copy of the list
        continue;
      }
      if (match !== cur) move(oldParent, match, cur);
      else cur = cur.nextSibling;
      morphNode(match, n, focused);
    }
    while (cur) { const next = cur.nextSibling; cur.remove(); cur = next; }
  }

  function morphNode(old, n, focused) {
    if (old.nodeType !== Node.ELEMENT_NODE) {
      if (old.nodeValue !== n.nodeValue) old.nodeValue = n.nodeValue;
      return;
    }
    const isFocused = old === focused;
    const control = old.tagName === 'INPUT' || old.tagName === 'TEXTAREA' || old.tagName === 'OPTION';
    const select = old.tagName === 'OPTION' ? old.closest('select') : null;
    if (control && !isFocused && (!select || select !== focused)) syncLiveState(old, n);
    for (const a of Array.from(old.attributes)) {
      if (!n.hasAttribute(a.name)) old.removeAttribute(a.name);
    }
    for (const a of Array.from(n.attributes)) {
      // The focused control keeps what the user typed, so its `value` attribute waits too.
      if (isFocused && a.name === 'value') continue;
      if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
    }
    if (old.tagName === 'TEXTAREA' && isFocused) return;  // its text child is its value
    morphChildren(old, n, focused);
  }

  // The live value of a control changes only when the server's rendered value changed, so text
  // typed into an unfocused field before the first `full` is not thrown away.
  function syncLiveState(old, n) {
    if (old.tagName === 'INPUT') {
      if (old.getAttribute('value') !== n.getAttribute('value')) old.value = n.getAttribute('value') ?? '';
      if (old.hasAttribute('checked') !== n.hasAttribute('checked')) old.checked = n.hasAttribute('checked');
    } else if (old.tagName === 'TEXTAREA') {
      if (old.defaultValue !== n.textContent) old.value = n.textContent;
    } else if (old.tagName === 'OPTION') {
      if (old.hasAttribute('selected') !== n.hasAttribute('selected')) old.selected = n.hasAttribute('selected');
    }
  }

  // ---------------------------------------------------------------- events (§1.4)

  function rootOf(el) {
    const root = el.closest('[data-fz-view][data-fz-token]');
    return root && views.has(root.id) ? root : null;
  }

  // The component number sits on the event element or its closest ancestor; slot content
  // carries its own, since it runs in the parent's scope.
  function componentOf(el, root) {
    const holder = el.closest('[data-fz-c]');
    if (!holder || !root.contains(holder)) return 0;
    const c = holder.getAttribute('data-fz-c');
    return /^\d+$/.test(c) ? Number(c) : c;
  }

  function formFields(form, into) {
    const multi = new Map();   // checkbox groups and multi-selects, joined with ","
    for (const el of form.elements) {
      const name = el.name;
      if (!name || el.disabled) continue;
      const type = (el.type || '').toLowerCase();
      if (type === 'submit' || type === 'button' || type === 'reset' || type === 'image' || type === 'file') continue;
      if (el.tagName === 'FIELDSET' || el.tagName === 'OUTPUT' || el.tagName === 'OBJECT') continue;
      if (type === 'checkbox') {
        if (!multi.has(name)) multi.set(name, []);
        if (el.checked) multi.get(name).push(el.value);
      } else if (type === 'radio') {
        if (el.checked) into[name] = el.value;
        else if (!(name in into)) into[name] = '';
      } else if (type === 'select-multiple') {
        multi.set(name, Array.from(el.selectedOptions, (o) => o.value));
      } else {
        into[name] = el.value;
      }
    }
    for (const [name, values] of multi) into[name] = values.join(',');
  }

  function valueOf(el) {
    if (el.type === 'checkbox' || el.type === 'radio') return el.checked ? el.value : '';
    if (el.tagName === 'SELECT' && el.multiple) return Array.from(el.selectedOptions, (o) => o.value).join(',');
    return el.value;
  }

  function hasValue(el) {
    return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' ||
      (el.tagName === 'BUTTON' && el.hasAttribute('value'));
  }

  // Later sources win: form fields, value, key, render-time arguments.
  function payload(el, type, key, submitter) {
    const p = {};
    const form = type === 'submit' ? el : el.hasAttribute('data-fz-include-form') ? el.closest('form') : null;
    if (form) formFields(form, p);
    if (submitter && submitter.name) p[submitter.name] = submitter.value;
    if (hasValue(el)) p.value = valueOf(el);
    if (key != null) p.key = key;
    const args = el.getAttribute('data-fz-args');
    if (args) {
      const obj = JSON.parse(args);
      for (const k of Object.keys(obj)) {
        const a = obj[k];
        p[k] = a == null ? '' : typeof a === 'object' ? JSON.stringify(a) : String(a);
      }
    }
    return p;
  }

  function markPending(ref, el, form) {
    const buttons = [];
    if (form) {
      for (const b of form.querySelectorAll('button, input[type=submit], input[type=image]')) {
        if (b.type === 'submit' || b.type === 'image') {
          if (!b.disabled) { b.disabled = true; buttons.push(b); }
        }
      }
    }
    pending.set(ref, { el, buttons });
    pendingCount.set(el, (pendingCount.get(el) || 0) + 1);
    el.classList.add('fz-pending');
  }

  function settle(ref) {
    const p = pending.get(ref);
    if (!p) return;
    pending.delete(ref);
    for (const b of p.buttons) b.disabled = false;
    const left = (pendingCount.get(p.el) || 1) - 1;
    if (left > 0) pendingCount.set(p.el, left);
    else { pendingCount.delete(p.el); p.el.classList.remove('fz-pending'); }
  }

  function dispatch(el, type, name, key, submitter) {
    const root = rootOf(el);
    if (!root || !connected) return;   // never queued: a reconnect is a fresh mount
    flushTimers(el);                   // keep events in the order the user made them
    const ref = nextRef++;
    const p = name === BIND_EVENT ? bindPayload(el) : payload(el, type, key, submitter);
    const frame = { t: 'ev', v: root.id, ref, c: componentOf(el, root), e: name, p };
    if (!send(frame)) return;
    markPending(ref, el, type === 'submit' ? el : null);
    if (type === 'submit') {
      for (const input of el.querySelectorAll('[data-fz-clear-on-submit]')) {
        if (input.type === 'checkbox' || input.type === 'radio') input.checked = false;
        else input.value = '';
      }
    }
  }

  function bindPayload(el) {
    const [prop, field] = el.getAttribute('data-fz-bind').split(':');
    const value = prop === 'checked' ? String(el.checked) : valueOf(el);
    return { field, value };
  }

  // Pending debounced events of other elements fire now, so a submit never overtakes the
  // keystrokes typed before it.
  function flushTimers(except) {
    const fires = [];
    for (const [el, perEvent] of timers) {
      if (el === except) continue;
      for (const t of Object.values(perEvent)) { clearTimeout(t.timer); if (t.fire) fires.push(t.fire); }
      timers.delete(el);
    }
    for (const fire of fires) fire();
  }

  // Debounce: fire `ms` after the last event. Throttle: fire at once, then at most once per
  // `ms`, with the last event of a burst sent at the end of its window.
  function schedule(el, slot, fire) {
    const debounce = DEBOUNCED.has(slot.split(':')[0]) ? el.getAttribute('data-fz-debounce') : null;
    const throttle = el.getAttribute('data-fz-throttle');
    if (!debounce && !throttle) return fire();
    let perEvent = timers.get(el);
    if (!perEvent) timers.set(el, perEvent = {});
    const t = perEvent[slot];
    const done = () => {
      delete perEvent[slot];
      if (timers.get(el) === perEvent && !Object.keys(perEvent).length) timers.delete(el);
    };
    if (debounce) {
      if (t) clearTimeout(t.timer);
      const wrapped = () => { done(); fire(); };
      perEvent[slot] = { timer: setTimeout(wrapped, Number(debounce) || 0), fire: wrapped };
      return;
    }
    if (!t) {
      fire();
      const entry = { fire: null };
      entry.timer = setTimeout(function tick() {
        if (entry.fire) { const f = entry.fire; entry.fire = null; f(); entry.timer = setTimeout(tick, Number(throttle) || 0); }
        else done();
      }, Number(throttle) || 0);
      perEvent[slot] = entry;
    } else {
      t.fire = fire;   // trailing call, replaced by each newer event
    }
  }

  function onDomEvent(type, ev) {
    const target = ev.target;
    if (!(target instanceof Element)) return;
    if (type === 'submit') {
      const form = target.closest('form');
      if (!form || !form.hasAttribute('data-fz-on-submit') || !rootOf(form)) return;
      ev.preventDefault();   // always, and also while disconnected (§2.5)
      if (pendingCount.has(form)) return;   // one submit in flight per form
      dispatch(form, 'submit', form.getAttribute('data-fz-on-submit'), null, ev.submitter);
      return;
    }
    // focus and blur do not bubble: only the target itself counts.
    const attr = 'data-fz-on-' + type;
    const el = type === 'focus' || type === 'blur' ? (target.hasAttribute(attr) ? target : null) : target.closest('[' + attr + ']');
    if (type === 'input' && target.hasAttribute('data-fz-bind') && rootOf(target)) {
      schedule(target, 'input:bind', () => dispatch(target, 'input', BIND_EVENT, null));
    }
    if (!el || !rootOf(el)) return;
    if (type === 'click' && (el.tagName === 'A' || el.tagName === 'BUTTON' || el.type === 'submit')) {
      ev.preventDefault();   // the handler decides; no navigation or native submit behind it
    }
    let key = null;
    if (type === 'keydown' || type === 'keyup') {
      key = ev.key;
      const keys = el.getAttribute('data-fz-keys');
      if (keys && !keys.split(',').map((s) => s.trim()).includes(key)) return;
    }
    schedule(el, type, () => dispatch(el, type, el.getAttribute(attr), key));
  }

  // ---------------------------------------------------------------- start

  function start() {
    for (const root of document.querySelectorAll('div[data-fz-view][data-fz-token]')) {
      if (!root.id || views.has(root.id)) continue;
      const rev = Number(root.getAttribute('data-fz-rev')) || 0;
      views.set(root.id, { root, rev, resyncing: false });
    }
    if (!views.size) return;
    for (const type of EVENTS) {
      const domType = type === 'focus' ? 'focusin' : type === 'blur' ? 'focusout' : type;
      document.addEventListener(domType, (ev) => onDomEvent(type, ev), type === 'focus' || type === 'blur');
    }
    setInterval(() => send({ t: 'hb' }), HEARTBEAT_MS);
    // The browser knows first when the network goes: drop the socket so the UI says so.
    window.addEventListener('offline', () => { if (socket) socket.close(); });
    window.addEventListener('online', () => {
      if (!socket && reconnectTimer && !stopped) { clearTimeout(reconnectTimer); attempt = 0; connect(); }
    });
    connect();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
