import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * The response shapes of the compatible endpoints, as JSON Schema, written for Scribe's tests from the contract
 * (the API contract's "Agent jobs (v2, compatible)" and "Visitors export (v1, compatible)" sections, and the hosted
 * service's published feedback and search response shapes): the fields
 * and types a client of the hosted service relies on. Extra fields are allowed, as the contract says; missing or
 * mistyped ones are not.
 */
const counts = {
  type: 'object',
  properties: { human: { type: 'number' }, ai: { type: 'number' }, total: { type: 'number' } },
  required: ['human', 'ai', 'total'],
} as const;

const pageCounts = {
  ...counts,
  properties: { path: { type: 'string' }, ...counts.properties },
  required: ['path', ...counts.required],
} as const;

const nullableString = { type: ['string', 'null'] } as const;
const feedbackSource = { enum: ['code_snippet', 'contextual', 'agent', 'thumbs_only'] } as const;
const feedbackStatus = { enum: ['pending', 'in_progress', 'resolved', 'dismissed'] } as const;
const feedbackBase = {
  id: { type: 'string' },
  path: { type: 'string' },
  comment: nullableString,
  createdAt: nullableString,
  source: feedbackSource,
  status: feedbackStatus,
} as const;
const feedbackBaseRequired = ['id', 'path', 'comment', 'createdAt', 'source', 'status'] as const;

export const COMPATIBLE_SCHEMAS = {
  // One of three entry shapes: page feedback (with `helpful` and `contact`), code-snippet feedback (with the snippet),
  // or the base fields alone (agent feedback and thumbs-only votes).
  FeedbackResponse: {
    type: 'object',
    properties: {
      feedback: {
        type: 'array',
        items: {
          anyOf: [
            {
              type: 'object',
              properties: { ...feedbackBase, helpful: { type: 'boolean' }, contact: nullableString },
              required: [...feedbackBaseRequired, 'helpful', 'contact'],
            },
            {
              type: 'object',
              properties: { ...feedbackBase, code: { type: 'string' }, filename: nullableString, lang: nullableString },
              required: [...feedbackBaseRequired, 'code', 'filename', 'lang'],
            },
            { type: 'object', properties: feedbackBase, required: [...feedbackBaseRequired] },
          ],
        },
      },
      nextCursor: nullableString,
      hasMore: { type: 'boolean' },
    },
    required: ['feedback', 'nextCursor', 'hasMore'],
  },
  FeedbackGroupedByPageResponse: {
    type: 'object',
    properties: {
      feedback: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string' },
            thumbsUp: { type: 'number' },
            thumbsDown: { type: 'number' },
            code: { type: 'number' },
            total: { type: 'number' },
          },
          required: ['path', 'thumbsUp', 'thumbsDown', 'code', 'total'],
        },
      },
      hasMore: { type: 'boolean' },
    },
    required: ['feedback', 'hasMore'],
  },
  SearchesResponse: {
    type: 'object',
    properties: {
      searches: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            searchQuery: { type: 'string' },
            hits: { type: 'number' },
            ctr: { type: 'number' },
            topClickedPage: nullableString,
            lastSearchedAt: { type: 'string' },
          },
          required: ['searchQuery', 'hits', 'ctr', 'topClickedPage', 'lastSearchedAt'],
        },
      },
      totalSearches: { type: 'integer', minimum: 0 },
      nextCursor: nullableString,
    },
    required: ['searches', 'totalSearches', 'nextCursor'],
  },
  VisitorsByPageResponse: {
    type: 'object',
    properties: { totals: counts, visitors: { type: 'array', items: pageCounts }, hasMore: { type: 'boolean' } },
    required: ['totals', 'visitors', 'hasMore'],
  },
  ViewsByPageResponse: {
    type: 'object',
    properties: { totals: counts, views: { type: 'array', items: pageCounts }, hasMore: { type: 'boolean' } },
    required: ['totals', 'views', 'hasMore'],
  },
  ErrorResponse: {
    type: 'object',
    properties: {
      error: { type: 'string' },
      details: {
        type: 'array',
        items: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      },
    },
    required: ['error'],
  },
  AgentJob: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      status: { enum: ['active', 'completed', 'archived', 'failed'] },
      source: {
        type: 'object',
        properties: { repository: { type: 'string', format: 'uri' }, ref: { type: ['string', 'null'] } },
        required: ['repository', 'ref'],
      },
      model: { type: 'string' },
      prLink: { type: ['string', 'null'], format: 'uri' },
      createdAt: { type: 'string', format: 'date-time' },
      archivedAt: { type: ['string', 'null'], format: 'date-time' },
    },
    required: ['id', 'status', 'source', 'model', 'prLink', 'createdAt', 'archivedAt'],
  },
} as const;

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** Compiled validators of the compatible shapes. */
export function compatibleValidators() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return {
    visitors: ajv.compile(COMPATIBLE_SCHEMAS.VisitorsByPageResponse),
    views: ajv.compile(COMPATIBLE_SCHEMAS.ViewsByPageResponse),
    error: ajv.compile(COMPATIBLE_SCHEMAS.ErrorResponse),
    agentJob: ajv.compile(COMPATIBLE_SCHEMAS.AgentJob),
    feedback: ajv.compile(COMPATIBLE_SCHEMAS.FeedbackResponse),
    feedbackByPage: ajv.compile(COMPATIBLE_SCHEMAS.FeedbackGroupedByPageResponse),
    searches: ajv.compile(COMPATIBLE_SCHEMAS.SearchesResponse),
  };
}
