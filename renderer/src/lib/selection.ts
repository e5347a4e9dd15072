/** Whether a file of the draft gets a preview (by its type, else by its name). */
export const isImageFile = (file: { readonly mime: string | null; readonly name: string }): boolean =>
  file.mime ? file.mime.startsWith('image/') : /\.(jpe?g|png|gif|webp|avif|tiff?|bmp|heic)$/i.test(file.name);
