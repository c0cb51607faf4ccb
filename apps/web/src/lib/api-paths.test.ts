import { limits } from '@sitelog/shared';
import { describe, expect, it } from 'vitest';
import { apiPaths, firstPageData } from './api-paths';

describe('firstPageData', () => {
  it('names the calls Home and All projects make as they open, and none for other pages', () => {
    expect(firstPageData('/')).toEqual([
      '/api/project/bookmark',
      `/api/upload/latest/${limits.latestUploadsHome}`,
    ]);
    expect(firstPageData('/projects/all')).toEqual([apiPaths.projectRows]);
    expect(firstPageData('/projects/all/')).toEqual([apiPaths.projectRows]);
    expect(firstPageData('/project/4')).toEqual([]);
    expect(firstPageData('/login')).toEqual([]);
  });
});
