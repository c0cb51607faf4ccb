import { useEffect, useState } from 'react';
import { recentProjects, type RecentProject } from './queue-db';

/**
 * The projects `userId` photographed for on this device, most recent first, read from the
 * queue's storage: the uploader's chooser and the uploader itself work without signal. Null
 * while reading.
 */
export function useRecentProjects(userId: number): RecentProject[] | null {
  const [projects, setProjects] = useState<{ userId: number; list: RecentProject[] } | null>(null);
  useEffect(() => {
    let live = true;
    recentProjects(userId)
      .then((list) => {
        if (live) setProjects({ userId, list });
      })
      .catch(() => {
        if (live) setProjects({ userId, list: [] });
      });
    return () => {
      live = false;
    };
  }, [userId]);
  return projects?.userId === userId ? projects.list : null;
}
