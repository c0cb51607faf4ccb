import { z } from 'zod';
import { placeSchema } from './projects.js';

/** A decimal number as written in a query string: no exponent, hex, blank or "Infinity". */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A latitude or longitude in a query string, with a message naming what is wrong. */
function coordinateParam(label: string, bound: number) {
  return z
    .string({
      error: (iss) =>
        iss.input === undefined ? `${label} is required.` : `${label} must be a number.`,
    })
    .trim()
    .min(1, { error: `${label} is required.` })
    .regex(DECIMAL, { error: `${label} must be a number.` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(-bound, { error: `${label} must be between -${bound} and ${bound}.` })
        .max(bound, { error: `${label} must be between -${bound} and ${bound}.` }),
    );
}

/** `GET /api/places/nearest?latitude=&longitude=`: decimal degrees (WGS 84). */
export const nearestPlaceQuerySchema = z.object({
  latitude: coordinateParam('latitude', 90),
  longitude: coordinateParam('longitude', 180),
});
export type NearestPlaceQuery = z.input<typeof nearestPlaceQuerySchema>;

/**
 * The gazetteer's nearest place to a point and its distance in km (great-circle, to one
 * decimal), or both null when no place is within 50 km: beyond that a place name would mislead.
 */
export const nearestPlaceResponseSchema = z.object({
  place: placeSchema.nullable(),
  distanceKm: z.number().nullable(),
});
export type NearestPlace = z.infer<typeof nearestPlaceResponseSchema>;
