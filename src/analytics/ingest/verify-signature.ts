import crypto from 'node:crypto';
import {
  type InnerList,
  type Item,
  isInnerList,
  parseDictionary,
  parseItem,
  serializeInnerList,
  serializeItem,
} from 'structured-headers';

/** The request headers of Web Bot Auth (lower-case names, as events and logs carry them). */
export interface SignatureHeaders {
  signature?: string;
  'signature-input'?: string;
  'signature-agent'?: string;
  /** the Host the request was sent to: its @authority, when the view's URL is only a path */
  host?: string;
}

/** A key a directory publishes, and when Scribe saw it dropped from the directory (it signs nothing after). */
export interface DirectoryKey {
  key: crypto.KeyObject;
  retiredAt?: number;
}

/** What Scribe holds of one key directory it trusts for some agents. */
export interface TrustedDirectory {
  /** Scribe's AI agent names the directory's keys vouch for, the one a browser's user agent is read as first */
  agents: readonly string[];
  keys: ReadonlyMap<string, DirectoryKey>;
  /** whether the key set is a fresh fetch: only then is an unknown keyid a forgery rather than a key not yet seen */
  current: boolean;
}

/**
 * `valid`: signed by a key of a directory trusted for the agent; `invalid`: a Web Bot Auth signature that does not
 * hold (forged, expired, replayed outside its window, malformed): the view is spoofed; `unchecked`: nothing to say
 * (no signature, a directory Scribe does not trust for this agent, keys not at hand): the other checks decide.
 */
export type SignatureCheck =
  | { outcome: 'valid'; directory: string; keyid: string; agent: string }
  | { outcome: 'invalid'; reason: string }
  | { outcome: 'unchecked'; reason: string };

export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
/** clocks of the signer and of whoever stamped the view differ a little */
const SKEW_S = 60;
/** the draft's signatures live minutes; a longer window is a replayable token, not a request signature */
const MAX_WINDOW_S = 24 * 3600;

/** The directory a Signature-Agent value names: its origin's well-known path, or the URL itself when it has a path. */
export function directoryUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return url.pathname === '/' && !url.search ? `${url.origin}${DIRECTORY_PATH}` : `${url.origin}${url.pathname}`;
}

/**
 * Checks a request's Web Bot Auth signature (RFC 9421 as the webbotauth drafts profile it) at the time the request
 * was made, not now: logs are imported hours after the fact. Structured fields are read by `structured-headers`;
 * the signature is Ed25519 through Node's crypto.
 */
export function verifySignature(params: {
  headers: SignatureHeaders;
  /** the request: its time (epoch ms), target and host as the site saw them */
  request: { timestamp: number; url: string; authority?: string; method?: string };
  /** the AI agent the user agent claims (Scribe's name); none: a browser's or an unnamed agent's user agent */
  agent?: string;
  directory: (url: string) => TrustedDirectory | undefined;
}): SignatureCheck {
  const { headers, request } = params;
  const input = headers['signature-input'];
  if (!input || !headers.signature) return { outcome: 'unchecked', reason: 'not signed' };
  let inputs: Map<string, Item | InnerList>;
  let signatures: Map<string, Item | InnerList>;
  try {
    inputs = parseDictionary(input);
    signatures = parseDictionary(headers.signature);
  } catch (err) {
    return { outcome: 'invalid', reason: `malformed signature headers (${(err as Error).message})` };
  }
  const label = [...inputs].find(([, v]) => isInnerList(v) && v[1].get('tag') === WEB_BOT_AUTH_TAG)?.[0];
  if (label === undefined) return { outcome: 'unchecked', reason: 'no web-bot-auth signature' };
  const [components, sigParams] = inputs.get(label) as InnerList;
  const signature = signatures.get(label);
  if (!signature || isInnerList(signature) || !(signature[0] instanceof ArrayBuffer))
    return { outcome: 'invalid', reason: `no signature labelled ${label}` };

  const created = sigParams.get('created');
  const expires = sigParams.get('expires');
  const keyid = sigParams.get('keyid');
  const alg = sigParams.get('alg');
  if (typeof created !== 'number' || typeof expires !== 'number' || typeof keyid !== 'string')
    return { outcome: 'invalid', reason: 'created, expires and keyid are required' };
  if (alg !== undefined && alg !== 'ed25519') return { outcome: 'invalid', reason: `alg ${String(alg)} refused` };
  const names = components.map(([name]) => name);
  if (!names.includes('@authority') || !names.includes('signature-agent'))
    return { outcome: 'invalid', reason: 'the signature must cover @authority and signature-agent' };
  const at = request.timestamp / 1000;
  if (expires < created || expires - created > MAX_WINDOW_S)
    return { outcome: 'invalid', reason: 'validity window refused' };
  if (created > at + SKEW_S) return { outcome: 'invalid', reason: 'created after the request' };
  if (expires < at - SKEW_S) return { outcome: 'invalid', reason: 'expired at the time of the request' };

  const agentComponent = components.find(([name]) => name === 'signature-agent')!;
  const member = agentComponent[1].get('key');
  const agentDirectory = signatureAgentOf(headers['signature-agent'], typeof member === 'string' ? member : undefined);
  if (!agentDirectory.url) return { outcome: 'invalid', reason: agentDirectory.reason };
  const trusted = params.directory(agentDirectory.url);
  const claimed = params.agent?.toLowerCase();
  const agent = claimed === undefined ? trusted?.agents[0] : trusted?.agents.find((a) => a.toLowerCase() === claimed);
  if (!trusted || !agent)
    return { outcome: 'unchecked', reason: `directory ${agentDirectory.url} is not trusted for ${params.agent}` };
  const key = trusted.keys.get(keyid);
  if (!key || (key.retiredAt !== undefined && request.timestamp >= key.retiredAt)) {
    return trusted.current
      ? { outcome: 'invalid', reason: `keyid ${keyid} is not in ${agentDirectory.url}` }
      : { outcome: 'unchecked', reason: `keyid ${keyid} unknown and ${agentDirectory.url} not fetched` };
  }
  const base = signatureBase({ components, sigParams, request, agentValue: agentDirectory.value });
  if ('reason' in base) return { outcome: 'unchecked', reason: base.reason };
  const ok = crypto.verify(null, Buffer.from(base.text), key.key, new Uint8Array(signature[0]));
  return ok
    ? { outcome: 'valid', directory: agentDirectory.url, keyid, agent }
    : { outcome: 'invalid', reason: 'signature does not verify' };
}

interface SignatureAgent {
  /** the directory it names, when it names one */
  url?: string;
  reason: string;
  /** its value in the signature base: the header, or the member's serialisation when the component picks one */
  value?: string;
}

/**
 * An operator's agents send the same Signature-Agent on every request: what it names is read once (by value and
 * the dictionary member the signature picks), not per request. Bounded: cleared when full.
 */
const agentCache = new Map<string, SignatureAgent>();
const AGENT_CACHE_SIZE = 1024;

/** The directory the covered Signature-Agent names (a string, or the dictionary member the component's key picks). */
function signatureAgentOf(header: string | undefined, member: string | undefined): SignatureAgent {
  if (!header) return { reason: 'no Signature-Agent header' };
  const cacheKey = member === undefined ? header : `${member}\n${header}`;
  let found = agentCache.get(cacheKey);
  if (!found) {
    found = readSignatureAgent(header.trim(), member);
    if (agentCache.size >= AGENT_CACHE_SIZE) agentCache.clear();
    agentCache.set(cacheKey, found);
  }
  return found;
}

function readSignatureAgent(raw: string, member: string | undefined): SignatureAgent {
  try {
    const item = member !== undefined ? parseDictionary(raw).get(member) : parseItem(raw);
    if (!item || isInnerList(item) || typeof item[0] !== 'string') return { reason: 'Signature-Agent names no URL' };
    const url = directoryUrl(item[0]);
    if (!url) return { reason: 'Signature-Agent is not an http(s) URL' };
    return { url, reason: '', value: member !== undefined ? serializeItem(item) : raw };
  } catch {
    return { reason: 'malformed Signature-Agent header' };
  }
}

/** `"@authority"` and the like: the serialisation of a component without parameters, made once per name. */
const componentNames = new Map<string, string>();

/** RFC 9421 §2.5: one line per covered component, then the parameters; undefined when a component is not at hand. */
function signatureBase(params: {
  components: Item[];
  sigParams: InnerList[1];
  request: { url: string; authority?: string; method?: string };
  agentValue: string | undefined;
}): { text: string } | { reason: string } {
  const { components, sigParams, request, agentValue } = params;
  let target: URL | undefined;
  let text = '';
  for (const component of components) {
    const [name, componentParams] = component;
    if (typeof name !== 'string') return { reason: 'a component is not a string' };
    let value: string | undefined;
    let serialized: string | undefined;
    if (name === 'signature-agent') {
      if (componentParams.size === 0 || typeof componentParams.get('key') === 'string') value = agentValue;
      if (componentParams.size !== 0) serialized = serializeItem(component);
    } else if (componentParams.size === 0) {
      if (!target) {
        try {
          target = new URL(request.url, request.authority ? `https://${request.authority}` : undefined);
        } catch {
          return { reason: 'no authority for the request' };
        }
      }
      value = derived(name, target, request.method);
    }
    if (value === undefined) return { reason: `component ${serializeItem(component)} not at hand` };
    if (serialized === undefined) {
      serialized = componentNames.get(name);
      if (serialized === undefined) {
        serialized = serializeItem(component);
        if (componentNames.size < AGENT_CACHE_SIZE) componentNames.set(name, serialized);
      }
    }
    text += `${serialized}: ${value}\n`;
  }
  text += `"@signature-params": ${serializeInnerList([components, sigParams])}`;
  return { text };
}

function derived(name: string, target: URL, method = 'GET'): string | undefined {
  switch (name) {
    case '@authority':
      return target.host.toLowerCase();
    case '@method':
      return method.toUpperCase();
    case '@scheme':
      return target.protocol.slice(0, -1);
    case '@target-uri':
      return target.href;
    case '@path':
      return target.pathname;
    case '@query':
      return target.search || '?';
    case '@request-target':
      return `${target.pathname}${target.search}`;
    default:
      return undefined;
  }
}
