import { describe, expect, it } from 'vitest';
import { distanceKm, formatDistanceKm } from './geo';

const vienna = { latitude: 48.2082, longitude: 16.3738 };
const paris = { latitude: 48.8566, longitude: 2.3522 };
const sydney = { latitude: -33.8688, longitude: 151.2093 };

describe('distanceKm', () => {
  it('is 0 from a point to itself', () => {
    expect(distanceKm(vienna, vienna)).toBe(0);
  });

  it('measures city to city like a great-circle calculator (within 0.5 %)', () => {
    // Reference distances on the WGS 84 ellipsoid (Vincenty): 1,034 km and 16,960 km.
    expect(distanceKm(vienna, paris)).toBeGreaterThan(1034 * 0.995);
    expect(distanceKm(vienna, paris)).toBeLessThan(1034 * 1.005);
    expect(distanceKm(paris, sydney)).toBeGreaterThan(16960 * 0.995);
    expect(distanceKm(paris, sydney)).toBeLessThan(16960 * 1.005);
  });

  it('is the same both ways', () => {
    expect(distanceKm(paris, sydney)).toBeCloseTo(distanceKm(sydney, paris), 9);
  });

  it('measures short distances on site: 0.001° of latitude is about 111 m', () => {
    const step = { latitude: vienna.latitude + 0.001, longitude: vienna.longitude };
    expect(distanceKm(vienna, step) * 1000).toBeCloseTo(111.2, 0);
  });

  it('goes the short way across the antimeridian', () => {
    const west = { latitude: 0, longitude: 179.5 };
    const east = { latitude: 0, longitude: -179.5 };
    expect(distanceKm(west, east)).toBeCloseTo(111.2, 0);
  });

  it('answers half the circumference for antipodes, never NaN', () => {
    const d = distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 });
    expect(d).toBeCloseTo(Math.PI * 6371.0088, 3);
    const poles = distanceKm({ latitude: 90, longitude: 0 }, { latitude: -90, longitude: 0 });
    expect(Number.isNaN(poles)).toBe(false);
  });
});

describe('formatDistanceKm', () => {
  it.each([
    [0.004, '0 m'],
    [0.347, '350 m'],
    [1.44, '1.4 km'],
    [9.96, '10 km'],
    [14.2, '14 km'],
    [2380.4, '2,380 km'],
  ])('%s km reads "%s"', (km, text) => {
    expect(formatDistanceKm(km)).toBe(text);
  });
});
