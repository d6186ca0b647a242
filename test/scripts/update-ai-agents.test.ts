import fs from 'node:fs';
import path from 'node:path';
import { curate } from '../../scripts/update-ai-agents.js';

// the vendored input of the update procedure (see ai-robots.SOURCE.md beside it)
const ROBOTS = path.resolve(import.meta.dirname, '../../src/analytics/ingest/ai-user-agents/ai-robots.json');
const DATA = path.resolve(import.meta.dirname, '../../src/analytics/ingest/ai-user-agents/ai-agents.json');

describe('the AI agent data file', () => {
  it('is exactly what the documented update procedure makes from ai-robots.json', () => {
    const robots = JSON.parse(fs.readFileSync(ROBOTS, 'utf8')) as Record<string, object>;
    expect(JSON.parse(fs.readFileSync(DATA, 'utf8'))).toEqual(curate(robots));
  });

  it('covers every listed name, minus the documented exclusions, each with a kind', () => {
    const robots = Object.keys(JSON.parse(fs.readFileSync(ROBOTS, 'utf8')) as object);
    const data = JSON.parse(fs.readFileSync(DATA, 'utf8')) as {
      agents: { name: string; kind: string }[];
      excluded: { name: string; reason: string }[];
    };
    const known = new Set([
      ...data.agents.map((a) => a.name.toLowerCase()),
      ...data.excluded.map((e) => e.name.toLowerCase()),
    ]);
    for (const name of robots) expect(known.has(name.replace(/[/ ]\d+(\.\d+)*$/, '').toLowerCase())).toBe(true);
    for (const agent of data.agents) expect(['crawler', 'search', 'assistant', 'agent']).toContain(agent.kind);
    expect(data.excluded.every((e) => e.reason.length > 10)).toBe(true);
  });
});
