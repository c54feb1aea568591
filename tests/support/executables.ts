// Finding a tool the tests drive, without running it: a child process forks the whole test worker,
// whose cost grows with its size (docs/testing.md).
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** The path of the executable `name` in a folder of PATH, then of `alsoIn`; null when none has it. */
export function findExecutable(name: string, alsoIn: string[] = []): string | null {
  for (const dir of [...(process.env.PATH ?? "").split(path.delimiter), ...alsoIn]) {
    if (dir === "") continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}
