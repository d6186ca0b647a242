import { parse } from 'yaml';

/** The GitHub App manifest (https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest). */
export interface AppManifest {
  name: string;
  url: string;
  description?: string;
  public: boolean;
  hook_attributes: { url: string; active: boolean };
  redirect_url: string;
  default_events: string[];
  default_permissions: Record<string, string>;
}

/**
 * The manifest Scribe registers itself with: app.yml, with the webhook and the post-registration redirect pointed
 * at this server. Pure: the YAML text and the server's public address in, the manifest out.
 */
export function buildAppManifest(params: { appYml: string; baseUrl: string; name?: string }): AppManifest {
  const file = (parse(params.appYml) ?? {}) as Partial<AppManifest>;
  const base = params.baseUrl.replace(/\/+$/, '');
  return {
    name: params.name?.trim() || file.name || 'Scribe',
    url: file.url || base,
    ...(file.description ? { description: file.description } : {}),
    public: file.public === true,
    hook_attributes: { url: `${base}/api/github/webhooks`, active: true },
    redirect_url: `${base}/probot/setup`,
    default_events: file.default_events ?? [],
    default_permissions: file.default_permissions ?? {},
  };
}

/** Where the manifest is posted: the account's or an organisation's "new GitHub App" page on github.com or GHES. */
export function newAppUrl(params: { webBase: string; organization?: string; state: string }): string {
  const org = params.organization?.trim();
  const where = org ? `/organizations/${encodeURIComponent(org)}/settings/apps/new` : '/settings/apps/new';
  return `${params.webBase}${where}?state=${encodeURIComponent(params.state)}`;
}
