/** The spec's admin product messages (SPEC §5, §8), browser-safe: the form shows them, the server answers them. */
export const PRODUCT_MESSAGES = {
  nameRequired: "Product name is required",
  priceRequired: "Valid price is required",
  wasPrice: "Write the was price in rand like 1299.00, or leave it empty",
  wasPriceNotHigher: "The was price must be higher than the price (it shows struck through as the price before a sale), or empty",
  slugRequired: "Product slug is required",
  categoryRequired: "Please select a category",
  slugTaken: "Another product already uses this slug: choose another",
  slugInvalid: "Use lower-case letters, digits and single hyphens in the slug",
  created: "Product created successfully!",
  updated: "Product updated successfully!",
  saveFailed: "Failed to save product",
  uploadFailed: "Failed to upload image",
  notAnImage: "Please select an image file",
  unreadableImage: "The image could not be read: the file is damaged or incomplete. Save it again (as JPEG, PNG or WebP) and upload that",
  tooLarge: "Image size must be less than 5MB",
  deleted: "Product deleted successfully!",
  deleteFailed: "Failed to delete product",
  noProducts: "No products found",
  noMatches: "No products match your filters",
} as const;

/** SPEC §9: an image may be up to 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** A product keeps at most this many images (the gallery shows them all). */
export const MAX_PRODUCT_IMAGES = 8;
