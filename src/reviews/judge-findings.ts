import type Anthropic from '@anthropic-ai/sdk';
import type { ChangedFile, Finding } from './impact/find-impact.js';
import { JUDGMENT_SYSTEM, buildJudgmentPrompt, parseJudgment } from './judgment-prompt.js';

const MAX_OUTPUT_TOKENS = 4_096;

export interface Judgment {
  kept: Finding[];
  /** findings the model judged unaffected, with its reason: listed apart ("checked, probably fine"), never dropped */
  rejected: { finding: Finding; reason: string }[];
  /** a kept finding → the model's one-line reason */
  reasons: Map<Finding, string>;
  /** whether the model judged; false when the call failed (then every finding is kept) */
  modelUsed: boolean;
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
  if (!findings.length) return { kept: [], rejected: [], reasons: new Map(), modelUsed: true, note: null };
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
      reasons: new Map(),
      modelUsed: false,
      note: `The model could not be asked (${said}); this is the deterministic list.`,
    };
  }
  const verdicts = parseJudgment(answer);
  const kept: Finding[] = [];
  const rejected: { finding: Finding; reason: string }[] = [];
  const reasons = new Map<Finding, string>();
  findings.forEach((f, i) => {
    const verdict = i < prompt.judged.length ? verdicts.get(i + 1) : undefined;
    if (verdict?.stale === false) rejected.push({ finding: f, reason: verdict.reason || 'judged unaffected' });
    else {
      kept.push(f);
      if (verdict?.reason) reasons.set(f, verdict.reason);
    }
  });
  const unjudged = findings.length - prompt.judged.filter((_, i) => verdicts.has(i + 1)).length;
  const notes = [
    prompt.diffCut ? 'The diff was cut to fit the token cap.' : '',
    unjudged ? `${unjudged} finding${unjudged === 1 ? ' was' : 's were'} not judged and stay listed.` : '',
  ].filter(Boolean);
  return { kept, rejected, reasons, modelUsed: true, note: notes.length ? notes.join(' ') : null };
}
