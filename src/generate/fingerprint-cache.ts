// The episode folders' fingerprints between builds, in Astro's cache folder (no output: never in
// dist/, never uploaded), so an incremental build reads no file of a folder whose files `stat` says
// are unchanged (src/generate/content.ts `listEpisodeFolders`): reading and hashing every
// episode.json and script.json was a large part of a one-episode build at 10,000 episodes
// (docs/performance.md). A fingerprint is reused only for the same content folder and the same
// signature, and only a settled folder's is kept; `npm run build -- --clean` reads no cache. The
// same entries give the listing its folders' names while a folder's own times are unchanged.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { FolderListing, KnownListing } from "./content.ts";

const VERSION = 2;

/** A settled folder as the last build listed it: its own times, its files' signature, its fingerprint. */
type Entry = [dir: string, signature: string, fingerprint: string];

interface CacheFile {
  version: number;
  contentDir: string;
  /** By episode.json's path in the content folder. */
  folders: Record<string, Entry>;
}

export class FingerprintCache {
  readonly #known: Record<string, Entry>;
  readonly #next: Record<string, Entry> = {};
  readonly #contentDir: string;
  /** Fingerprints taken from the cache in this build: folders not read. */
  reused = 0;

  private constructor(contentDir: string, known: Record<string, Entry>) {
    this.#contentDir = contentDir;
    this.#known = known;
  }

  /** The cache at `file` for `contentDir`; empty when absent, unreadable, of another folder, or when `ignore`. */
  static read(file: string, contentDir: string, ignore = false): FingerprintCache {
    if (ignore) return new FingerprintCache(contentDir, {});
    try {
      const data = JSON.parse(readFileSync(file, "utf8")) as CacheFile;
      const usable = data.version === VERSION && data.contentDir === contentDir && typeof data.folders === "object" && data.folders !== null;
      return new FingerprintCache(contentDir, usable ? data.folders : {});
    } catch {
      return new FingerprintCache(contentDir, {}); // no cache yet, or a damaged one: every folder is read
    }
  }

  /** The folder as the last build listed it, when settled then (src/generate/content.ts `listEpisodeFolders`). */
  known(source: string): KnownListing | undefined {
    const known = this.#known[source];
    return known === undefined ? undefined : { dir: known[0], signature: known[1] };
  }

  /** The fingerprint of the folder as listed, when the cache knows this very signature; else null. */
  get(listing: FolderListing): string | null {
    const known = this.#known[listing.source];
    if (known === undefined || known[1] !== listing.signature) return null;
    this.reused++;
    return known[2];
  }

  /** Keeps the folder's fingerprint for the next build when its signature can stand for its bytes. */
  keep(listing: FolderListing, fingerprint: string): void {
    if (listing.settled) this.#next[listing.source] = [listing.dir, listing.signature, fingerprint];
  }

  /** Writes this build's fingerprints whole, through a temporary name: a build stopped halfway leaves the last good cache. */
  save(file: string): void {
    const data: CacheFile = { version: VERSION, contentDir: this.#contentDir, folders: this.#next };
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, file);
  }
}
