import { z } from 'zod';

/**
 * GET /api/config: public settings the web app needs before or without sign-in, such as which
 * place search to use. Nothing here is secret: the Google Maps key is a browser key.
 */
export const clientConfigSchema = z.object({
  placesProvider: z.enum(['offline', 'google']),
  googleMapsKey: z.string().nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
