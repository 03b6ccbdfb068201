// Where the API's files live in Storage, whose namespace is flat with names of at most 28
// characters: one letter for the folder, a slash, then the file name ("/ICONS/mail.gif" is
// "I/mail.gif"). Names too long for that are the files route's to map.

/** The folders of the files API and their letters in Storage names. */
const FOLDERS = "/ICONS I /MELODIES M /PALETTES P /MP3 3";

/** Storage's longest file name. */
export const STORAGE_NAME_MAX = 28;

/** The Storage name prefix ("I/") of folder `dir` ("/ICONS"), or "" when it is not a folder of the API. */
export function folderPrefix(dir: string): string {
  const words = FOLDERS.split(" ");
  for (let i = 0; i < words.length; i += 2) if (words[i] === dir) return words[i + 1] + "/";
  return "";
}

/** The Storage name of file `name` in folder `dir`; "" when the folder is unknown or the name does not fit. */
export function storageName(dir: string, name: string): string {
  const prefix = folderPrefix(dir);
  const out = prefix + name;
  return prefix && name && out.length <= STORAGE_NAME_MAX ? out : "";
}
