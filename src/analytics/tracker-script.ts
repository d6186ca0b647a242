/**
 * The browser tracker served at /js/scribe.js. No cookies, no storage, no fingerprinting: it posts the page URL
 * and referrer; the server derives the visitor from address and user agent and keeps only a keyed hash.
 * Embed: <script defer src="https://<scribe>/js/scribe.js" data-project="<projectId>"></script>
 * sendBeacon posts text/plain, which needs no CORS preflight. Single-page navigations are followed via history.
 */
export const TRACKER_SCRIPT = `(function () {
  var script = document.currentScript;
  if (!script || navigator.webdriver) return;
  var project = script.getAttribute('data-project');
  if (!project) return;
  var endpoint = script.getAttribute('data-api') || new URL('/api/event', script.src).href;
  var last = null;
  function send() {
    if (location.href === last) return;
    var body = JSON.stringify({ projectId: project, url: location.href, referrer: last === null ? document.referrer || null : last });
    last = location.href;
    if (navigator.sendBeacon && navigator.sendBeacon(endpoint, body)) return;
    fetch(endpoint, { method: 'POST', body: body, keepalive: true, headers: { 'Content-Type': 'text/plain' } }).catch(function () {});
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
