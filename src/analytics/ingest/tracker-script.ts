/**
 * The browser tracker served at /js/scribe.js. No cookies, no storage, no fingerprinting: it posts the page URL
 * and referrer; the server derives the visitor from address and user agent and keeps only a keyed hash.
 * Embed: <script defer src="https://<scribe>/js/scribe.js" data-project="<projectId>"></script>
 * sendBeacon posts text/plain, which needs no CORS preflight. Single-page navigations are followed via history.
 *
 * Also: `window.scribe(name, data)` for the site's search box ('search', 'search-click'), its own feedback
 * controls ('feedback') and its "not found" page ('404': the problems queue's missing pages), replaying calls queued before the script loaded; and, with `data-feedback`, a "Was this
 * page helpful?" widget (rendered into the element the attribute's value selects, or at the end of the page).
 * Everything is built with DOM calls and textContent, never HTML strings.
 */
export const TRACKER_SCRIPT = `(function () {
  var script = document.currentScript;
  if (!script || navigator.webdriver) return;
  var project = script.getAttribute('data-project');
  if (!project) return;
  var endpoint = script.getAttribute('data-api') || new URL('/api/event', script.src).href;
  var last = null;
  function post(url, data) {
    data.projectId = project;
    data.url = location.href;
    var body = JSON.stringify(data);
    if (navigator.sendBeacon && navigator.sendBeacon(url, body)) return;
    fetch(url, { method: 'POST', body: body, keepalive: true, headers: { 'Content-Type': 'text/plain' } }).catch(function () {});
  }
  function send() {
    if (location.href === last) return;
    var referrer = last === null ? document.referrer || null : last;
    last = location.href;
    post(endpoint, { referrer: referrer });
    if (widget) widget.reset();
  }
  function feedback(data) {
    post(new URL('feedback', endpoint).href, data);
  }
  var api = {
    search: function (d) {
      if (d && d.query) post(new URL('search', endpoint).href, { query: String(d.query) });
    },
    'search-click': function (d) {
      if (d && d.query && d.path) post(new URL('search', endpoint).href, { query: String(d.query), clickedPath: String(d.path) });
    },
    feedback: function (d) {
      if (d && typeof d.helpful === 'boolean') feedback({ helpful: d.helpful, comment: d.comment ? String(d.comment) : null });
    },
    '404': function () {
      post(new URL('miss', endpoint).href, {});
    }
  };
  var queued = (window.scribe && window.scribe.q) || [];
  window.scribe = function (name, data) {
    if (api.hasOwnProperty(name)) api[name](data);
  };
  for (var i = 0; i < queued.length; i++) window.scribe.apply(null, queued[i]);

  var widget = null;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  function render() {
    var where = script.getAttribute('data-feedback');
    var target = where ? document.querySelector(where) : document.body;
    if (!target) return;
    var style = el('style', null, '.scribe-feedback{margin:2em 0;font:inherit}.scribe-feedback button{font:inherit;cursor:pointer;margin-left:.5em}.scribe-feedback [aria-pressed=true]{font-weight:bold}.scribe-feedback textarea{display:block;width:100%;max-width:40em;margin:.5em 0}');
    var box = el('div', 'scribe-feedback');
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'Page feedback');
    var up = el('button', 'scribe-feedback-yes', '\\ud83d\\udc4d Yes');
    var down = el('button', 'scribe-feedback-no', '\\ud83d\\udc4e No');
    var form = el('form', 'scribe-feedback-comment');
    var text = el('textarea');
    var submit = el('button', null, 'Send');
    var thanks = el('p', 'scribe-feedback-thanks', 'Thanks for your feedback!');
    text.maxLength = 2000;
    text.placeholder = 'How could this page be better? (optional)';
    text.setAttribute('aria-label', 'Comment');
    submit.type = 'submit';
    form.appendChild(text);
    form.appendChild(submit);
    box.appendChild(el('span', 'scribe-feedback-question', 'Was this page helpful?'));
    box.appendChild(up);
    box.appendChild(down);
    box.appendChild(form);
    box.appendChild(thanks);
    var helpful = null;
    var submission = null;
    function vote(value) {
      helpful = value;
      up.setAttribute('aria-pressed', String(value));
      down.setAttribute('aria-pressed', String(!value));
      feedback({ helpful: value, submission: submission });
      form.hidden = false;
      thanks.hidden = false;
    }
    up.type = down.type = 'button';
    up.onclick = function () { vote(true); };
    down.onclick = function () { vote(false); };
    form.onsubmit = function (e) {
      e.preventDefault();
      if (helpful === null || !text.value.trim()) return;
      feedback({ helpful: helpful, comment: text.value, submission: submission });
      form.hidden = true;
    };
    widget = {
      reset: function () {
        var bytes = crypto.getRandomValues(new Uint8Array(12));
        submission = '';
        for (var i = 0; i < bytes.length; i++) submission += ('0' + bytes[i].toString(16)).slice(-2);
        helpful = null;
        up.removeAttribute('aria-pressed');
        down.removeAttribute('aria-pressed');
        form.hidden = thanks.hidden = true;
        text.value = '';
      }
    };
    widget.reset();
    document.head.appendChild(style);
    target.appendChild(box);
  }
  if (script.hasAttribute('data-feedback')) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', render);
    else render();
  }

  var pushState = history.pushState;
  history.pushState = function () {
    pushState.apply(this, arguments);
    send();
  };
  addEventListener('popstate', send);
  if (document.visibilityState === 'prerender') document.addEventListener('visibilitychange', send, { once: true });
  else send();
})();
`;
