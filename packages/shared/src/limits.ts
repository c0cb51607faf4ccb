/** Limits shared by the web app (form hints) and the server (validation). */
export const limits = {
  nameMax: 120,
  personNameMax: 80,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 256,
  locationMax: 200,
  descriptionMax: 5000,
  uploadNameMax: 200,
  latestUploadsHome: 18,
  latestUploadsPage: 50,
  latestUploadsMax: 100,
  relevantProjects: 5,
  placeQueryMax: 100,
  placeSuggestions: 10,
} as const;
