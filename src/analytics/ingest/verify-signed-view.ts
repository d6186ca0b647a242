import { isInnerList, parseDictionary, parseItem } from 'structured-headers';
import type { KeyDirectories } from './key-directories.js';
import type { PageView } from './prepare-event.js';
import type { AgentCheck } from './verify-agent.js';
import { directoryUrl, verifySignature } from './verify-signature.js';

/** Directories by Signature-Agent value: an operator sends the same value on every request. Cleared when full. */
const directoryCache = new Map<string, string | undefined>();

/** The directories a view's Signature-Agent names (what to fetch before checking it), or none. */
export function signedDirectory(view: PageView): string | undefined {
  const value = view.headers?.['signature-agent'];
  if (!value || !view.headers?.signature) return undefined;
  if (directoryCache.has(value)) return directoryCache.get(value);
  const url = readDirectory(value);
  if (directoryCache.size >= 1024) directoryCache.clear();
  directoryCache.set(value, url);
  return url;
}

function readDirectory(value: string): string | undefined {
  try {
    const item = parseItem(value);
    return typeof item[0] === 'string' ? directoryUrl(item[0]) : undefined;
  } catch {
    // the newer drafts' form: a dictionary of agents, the signature naming its member
  }
  try {
    for (const member of parseDictionary(value).values())
      if (!isInnerList(member) && typeof member[0] === 'string') return directoryUrl(member[0]);
  } catch {
    // malformed: verifySignature says so
  }
  return undefined;
}

/**
 * The outcome a view's signature decides, or undefined when it decides nothing (no signature, a directory not
 * trusted for the agent, keys not at hand) and the address checks go on. A signature that fails makes an AI user
 * agent spoofed; a browser's user agent with a failing signature claimed no agent and stays what it is.
 */
export function signatureCheck(params: {
  view: PageView;
  agent: string | undefined;
  directories: KeyDirectories;
}): AgentCheck | undefined {
  const { view, agent, directories } = params;
  if (!view.headers?.signature) return undefined;
  const check = verifySignature({
    headers: view.headers,
    request: { timestamp: view.timestamp, url: view.requestUrl ?? view.url, authority: view.headers.host },
    agent,
    directory: (url) => directories.lookUp(url),
  });
  if (check.outcome === 'valid')
    return { verification: 'verified', by: 'signature', agent: agent ? undefined : check.agent };
  if (check.outcome === 'invalid' && agent) return { verification: 'unverified', reason: check.reason };
  return undefined;
}
