#!/usr/bin/env node
// `npx scribe …`: the operator CLI. Sources are TypeScript, loaded through tsx's ESM hooks.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
