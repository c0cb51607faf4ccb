import { errorResponseSchema } from '@sitelog/shared';

/** Error responses every route may give; declared so OpenAPI documents them. */
export const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  413: errorResponseSchema,
  415: errorResponseSchema,
  429: errorResponseSchema,
} as const;
