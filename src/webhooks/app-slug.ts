import type { Probot } from 'probot';

/**
 * The App's slug (what people type after `@`), asked of GitHub once and remembered; `override` skips the call.
 * A failed lookup is not remembered, so the next delivery tries again.
 */
export function createAppSlug(params: { probot: Probot; override?: string }): () => Promise<string> {
  let slug: Promise<string> | undefined = params.override ? Promise.resolve(params.override) : undefined;
  return () => {
    slug ??= (async () => {
      const app = await params.probot.auth();
      const { data } = await app.rest.apps.getAuthenticated();
      if (!data?.slug) throw new Error('GitHub did not return the App slug');
      return data.slug;
    })();
    slug.catch(() => {
      slug = undefined;
    });
    return slug;
  };
}
