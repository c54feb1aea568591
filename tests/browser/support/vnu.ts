// The Nu Html Checker (vnu.jar, from the vnu-jar npm package, run on the machine's Java): the
// messages it gives for some HTML documents, all checked in one run (the JVM takes seconds to start).
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT, tempDir } from "../../support/fixture.ts";

const run = promisify(execFile);
const JAR = path.join(ROOT, "node_modules/vnu-jar/build/dist/vnu.jar");

export interface VnuMessage {
  /** The document's name, as given. */
  doc: string;
  type: string;
  subType?: string;
  message: string;
  lastLine?: number;
  extract?: string;
}

/** Every error and warning vnu reports for each named document (an empty list: valid). */
export async function vnuMessages(docs: Record<string, string>): Promise<VnuMessage[]> {
  const dir = await tempDir("vnu");
  try {
    const files: Record<string, string> = {};
    for (const [i, [name, html]] of Object.entries(docs).entries()) {
      const file = path.join(dir, `doc-${i}.html`);
      await writeFile(file, html);
      files[file] = name;
    }
    // The JVM's first compiler only: its optimising compiler spent more CPU on this one short run than
    // it saved (~4.5 → ~2.7 CPU s, the same messages). Its frames are larger: vnu's schema needs a deeper stack.
    const { stdout } = await run("java", ["-XX:TieredStopAtLevel=1", "-Xss8m", "-jar", JAR, "--format", "json", "--stdout", "--exit-zero-always", ...Object.keys(files)], { maxBuffer: 16 * 1024 * 1024 });
    const { messages } = JSON.parse(stdout) as { messages: (Omit<VnuMessage, "doc"> & { url: string })[] };
    return messages.map(({ url, ...m }) => ({ doc: files[new URL(url).pathname] ?? url, ...m }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
