/** What agent jobs still need on this server (settings to make), as the dashboard route wrote it into the page. */
export function jobsMissing() {
  try {
    return JSON.parse(document.body.dataset.jobsMissing || '[]');
  } catch (_) {
    return [];
  }
}
