// Jest loads global setup outside its ESM transform, so the TypeScript it needs is loaded through tsx.
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { createTemplates } = await tsImport('./test-templates.ts', import.meta.url);
  await createTemplates();
}
