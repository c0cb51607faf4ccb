/** The width of the menu, docked (from md up) or in the phone drawer. */
export const DRAWER_WIDTH = 240;
