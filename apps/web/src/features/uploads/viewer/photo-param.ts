/** The search parameter that holds the photo shown full screen: `/project/7?photo=123`. */
export const PHOTO_PARAM = 'photo';
