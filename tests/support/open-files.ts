// Open file descriptors of this process (Linux /proc/self/fd) that point at files under a folder:
// how the audio tests see whether the server, running in the test process, still reads a file.
// Only the folder's files count: other test files share the process and may hold files of their own.
import { readdirSync, readlinkSync, realpathSync } from "node:fs";

export function openFilesUnder(dir: string, suffix: string): number {
  const root = realpathSync(dir);
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(root) && target.endsWith(suffix);
    } catch {
      return false; // closed between the listing and the readlink
    }
  }).length;
}
