import type Anthropic from '@anthropic-ai/sdk';
import type { ChangedFile, Finding } from './local-impact.js';
import { JUDGMENT_SYSTEM, buildJudgmentPrompt, findingKey, parseJudgment } from './judgment-prompt.js';

const MAX_OUTPUT_TOKENS = 4_096;

export interface Judgment {
  kept: Finding[];
  /** findings the model judged unaffected: listed apart ("checked, probably fine"), never dropped */
  rejected: Finding[];
  /** finding key (judgment-prompt.ts findingKey) → the model's one-line reason */
  reasons: Record<string, string>;
  /** the model that judged; null when the call failed (then every finding is kept) */
  modelUsed: string | null;
  /** what the summary should say about the judgment (a cut diff, findings left unjudged, a failed call) */
  note: string | null;
}

/**
 * One bounded call: the findings and the diff within `maxInputTokens`; each finding judged stale is kept with its
 * reason, each judged unaffected is moved to `rejected`. A failed call keeps every finding and says why.
 */
export async function judgeFindings(params: {
  anthropic: Anthropic;
  model: string;
  findings: Finding[];
  files: ChangedFile[];
  maxInputTokens: number;
  signal?: AbortSignal;
}): Promise<Judgment> {
  const { findings } = params;
  if (!findings.length) return { kept: [], rejected: [], reasons: {}, modelUsed: params.model, note: null };
  const prompt = buildJudgmentPrompt(params);
  let answer: string;
  try {
    const message = await params.anthropic.messages.create(
      {
        model: params.model,
        max_tokens: MAX_OUTPUT_TOKENS,
        system: JUDGMENT_SYSTEM,
        messages: [{ role: 'user', content: prompt.text }],
      },
      { signal: params.signal, maxRetries: 1 },
    );
    answer = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  } catch (err) {
    const said = ((err as Error)?.message ?? String(err)).split('\n')[0].slice(0, 200);
    return {
      kept: findings,
      rejected: [],
      reasons: {},
      modelUsed: null,
      note: `The model could not be asked (${said}); this is the deterministic list.`,
    };
  }
  const verdicts = parseJudgment(answer);
  const kept: Finding[] = [];
  const rejected: Finding[] = [];
  const reasons: Record<string, string> = {};
  findings.forEach((f, i) => {
    const verdict = i < prompt.judged.length ? verdicts.get(i + 1) : undefined;
    if (verdict?.reason) reasons[findingKey(f)] = verdict.reason;
    (verdict?.stale === false ? rejected : kept).push(f);
  });
  const unjudged = findings.length - prompt.judged.filter((_, i) => verdicts.has(i + 1)).length;
  const notes = [
    prompt.diffCut ? 'The diff was cut to fit the token cap.' : '',
    unjudged ? `${unjudged} finding${unjudged === 1 ? ' was' : 's were'} not judged and stay listed.` : '',
  ].filter(Boolean);
  return { kept, rejected, reasons, modelUsed: params.model, note: notes.length ? notes.join(' ') : null };
}
