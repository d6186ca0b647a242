import type { RequestHandler, Response } from 'express';
import type { AppContext } from './context.js';
import { authenticateApiKey, authorizeApiKey, type Scope } from '../keys/api-keys.js';
import { Unauthenticated } from '../errors.js';
import { getProject, type Project } from '../projects/projects.js';

/**
 * Bearer-key check for routes under /:projectId. Order matters for what a caller learns: 401 (no usable key)
 * before 403 (key not for this project or lacking scope) before 404 (project unknown), so an unauthenticated
 * caller cannot probe which projects exist. `GET`/`HEAD` need `read`; everything else `write`.
 */
export function requireApiKey(ctx: AppContext, scope?: Scope): RequestHandler {
  return async (req, res, next) => {
    try {
      const header = req.get('authorization');
      const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
      if (header && !match) throw new Unauthenticated('Authorization header must be "Bearer <API key>"');
      const key = await authenticateApiKey({ db: ctx.db, clock: ctx.clock, presented: match?.[1] });
      const projectId = String(req.params.projectId);
      authorizeApiKey(key, projectId, scope ?? (req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write'));
      res.locals.project = await getProject(ctx.db, projectId);
      next();
    } catch (err) {
      next(err);
    }
  };
}

export function authenticatedProject(res: Response): Project {
  return res.locals.project as Project;
}
