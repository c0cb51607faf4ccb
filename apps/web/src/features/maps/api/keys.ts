/** Query keys of the maps feature: one root, so an upload or project change can refresh every map. */
export const mapKeys = {
  all: ['maps'] as const,
  config: () => [...mapKeys.all, 'config'] as const,
  projects: () => [...mapKeys.all, 'projects'] as const,
  projectPhotos: (projectId: number) => [...mapKeys.all, 'project-photos', projectId] as const,
  nearestPlace: (latitude: number, longitude: number) =>
    [...mapKeys.all, 'nearest-place', latitude, longitude] as const,
};
