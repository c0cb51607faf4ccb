// Responses are written by fast-json-stringify, compiled once per route and status from the
// contract's Zod schema (turned into JSON Schema), instead of validating every response with
// Zod and then calling JSON.stringify.
import fastJson from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/**
 * `anyOf: [X, {type: 'null'}]` (how Zod writes `.nullable()`) as `type: [X's type, 'null']`:
 * fast-json-stringify picks an `anyOf` branch by validating the value, a `type` list by typeof.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = simplify(value);
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nulls = anyOf.filter((s) => s.type === 'null' && Object.keys(s).length === 1);
    const [other] = anyOf.filter((s) => !nulls.includes(s));
    if (nulls.length === 1 && other && typeof other.type === 'string' && !('anyOf' in other)) {
      const { anyOf: _, ...rest } = out;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/** The JSON Schema fast-json-stringify compiles for a response's Zod schema. */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  const { $schema: _, ...rest } = simplify(json) as JsonSchema;
  return rest;
}

/** `value` with every object's keys in sorted order (key order aside, the same JSON). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The app's serializer compiler. With `checkContract` (every test run), each response is also
 * parsed by its Zod schema and the fast output compared with `JSON.stringify` of the parsed
 * value, so a response that breaks the contract, or that the compiled writer renders
 * differently, fails the test that caused it.
 */
export function createSerializerCompiler(options: {
  checkContract: boolean;
}): FastifySerializerCompiler<z.ZodType | { properties: z.ZodType }> {
  return ({ schema: maybeSchema, method, url }) => {
    const schema = isZod(maybeSchema) ? maybeSchema : maybeSchema.properties;
    const stringify = fastJson(
      responseJsonSchema(schema) as unknown as Parameters<typeof fastJson>[0],
    );
    if (!options.checkContract) return (data) => stringify(data);
    return (data) => {
      const parsed = schema.safeParse(data);
      if (!parsed.success)
        throw new ResponseSerializationError(method, url, { cause: parsed.error });
      const fast = stringify(data);
      const reference = JSON.stringify(parsed.data);
      // The compiled writer puts required properties before optional ones, so an optional field
      // declared among required ones comes out in another place: the same JSON to any reader.
      if (
        fast !== reference &&
        JSON.stringify(sortKeys(JSON.parse(fast))) !==
          JSON.stringify(sortKeys(JSON.parse(reference)))
      )
        throw new Error(
          `${method} ${url}: the compiled serializer wrote ${fast.slice(0, 300)} where the contract gives ${reference.slice(0, 300)}`,
        );
      return fast;
    };
  };
}

/**
 * Sends JSON the database wrote itself (the longest lists: no row objects, no serializer; see
 * `listProjectRowsJson`) as it is. With `checkContract` (tests) it is parsed and checked
 * against the route's contract first, as every serialized response is.
 */
export function sendJsonText(
  reply: FastifyReply,
  json: string,
  schema: z.ZodType,
  checkContract: boolean,
): FastifyReply {
  if (checkContract) {
    const parsed = schema.safeParse(JSON.parse(json));
    if (!parsed.success)
      throw new ResponseSerializationError(reply.request.method, reply.request.url, {
        cause: parsed.error,
      });
  }
  return reply.type('application/json; charset=utf-8').send(json);
}
