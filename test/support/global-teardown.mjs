// Jest loads global teardown outside its ESM transform, so the TypeScript it needs is loaded through tsx.
import { tsImport } from 'tsx/esm/api';

export default async function globalTeardown() {
  const { dropTemplates } = await tsImport('./test-templates.ts', import.meta.url);
  await dropTemplates();
}
