// Files that go into the device's Storage beside the bundle: name on the device -> source.
export const STORAGE_FILES = { "index.html": "web/index.html" };
