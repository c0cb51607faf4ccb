/** Every route of the spec (§2), so links are typed and spelled once. */
export const paths = {
  home: '/',
  login: '/login',
  /** An invitation link's page (public; not in the spec): the member sets their password. */
  invite: (token: string) => `/invite/${token}`,
  latestUploads: '/uploads/latest',
  upload: (id: number) => `/upload/${id}`,
  uploadEdit: (id: number) => `/upload/${id}/edit`,
  uploadEditBatch: (id: number) => `/upload/${id}/edit/batch`,
  uploader: (projectId: number) => `/uploader/${projectId}/create`,
  uploaderChoose: '/uploader/choose',
  /** The batch editor of the uploader's current visit (not in the spec: it lists every photo). */
  uploaderBatch: (projectId: number) => `/uploader/${projectId}/batch`,
  /** Every photo still on this device, waiting to be sent (not in the spec). */
  uploadQueue: '/uploads/queue',
  myProjects: '/projects',
  allProjects: '/projects/all',
  archivedProjects: '/projects/archived',
  newProject: '/projects/new',
  project: (id: number) => `/project/${id}`,
  reports: '/reports',
  /** The report creator, carrying its project (spec §2's report-creator). */
  reportCreate: (projectId?: number) =>
    projectId === undefined ? '/reports/create' : `/reports/create?project=${projectId}`,
  /** One report: its PDF, progress, photos and public links (not in the spec). */
  report: (id: number) => `/report/${id}`,
  notifications: '/notifications',
  /** The team's activity timeline (the side menu's Events). */
  events: '/events',
  search: (query?: string) => (query ? `/search?q=${encodeURIComponent(query)}` : '/search'),
  profile: '/profile',
  memberProfile: (id: number) => `/profile/${id}`,
  teams: '/teams',
  admin: '/admin',
} as const;
