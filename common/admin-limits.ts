// The admin lists' page sizes, in a zod-free module: the web app's route definitions (on every page's first load)
// need the default to keep it out of the address, without loading the schemas.

export const ADMIN_PAGE_SIZES = [10, 25, 50, 100] as const;
export const ADMIN_DEFAULT_PAGE_SIZE = 25;
