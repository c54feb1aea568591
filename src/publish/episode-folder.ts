// Writing a published episode into CONTENT_DIR/episodes/<name>, all or nothing: the files go into
// a dot-folder beside it first (the build's glob skips dot-folders: EPISODE_FILES in
// src/generate/content.ts), which one rename() then puts in place. Taking it back out (when the
// build or the deploy fails) is the same in reverse, so the build never sees half a folder.
import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PreparedEpisode } from "./validate.ts";

/** Writes episode.json (with its facts), script.json and, when `withAudio` (local mode), the MP3; returns the folder. */
export async function writeEpisodeFolder(contentDir: string, ep: PreparedEpisode, withAudio: boolean): Promise<string> {
  const episodes = path.join(contentDir, "episodes");
  const target = path.join(episodes, ep.name);
  await mkdir(episodes, { recursive: true });
  const staging = await mkdtemp(path.join(episodes, `.publish-${ep.name}-`));
  try {
    await writeFile(path.join(staging, "episode.json"), `${JSON.stringify(ep.json, null, 2)}\n`);
    if (ep.scriptPath !== null) await copyFile(ep.scriptPath, path.join(staging, "script.json"));
    if (withAudio) {
      const to = path.join(staging, ...ep.mp3.rel.split("/"));
      await mkdir(path.dirname(to), { recursive: true });
      await copyFile(ep.mp3.abs, to);
    }
    // Refused (ENOTEMPTY/EEXIST) if an episode folder of that name appeared meanwhile: never merged.
    await rename(staging, target);
    return target;
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
}

/** Takes a written episode folder back out: renamed out of the build's sight first, then deleted. */
export async function removeEpisodeFolder(folder: string): Promise<void> {
  const hidden = path.join(path.dirname(folder), `.unpublish-${path.basename(folder)}-${process.pid}`);
  await rename(folder, hidden);
  await rm(hidden, { recursive: true, force: true });
}
