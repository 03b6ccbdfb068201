// The benchmarks' command-line options: `--<name> <value>` after `npm run bench... --`.

/** The value after `--<name>`, or `fallback` when the option is absent or has no value. */
export function option(name: string, fallback: number | string): string {
  const i = process.argv.indexOf("--" + name);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : String(fallback);
}
