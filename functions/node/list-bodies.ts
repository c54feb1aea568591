// The list's bodies in one file (BUILD_FILES.listBodies, format: src/node/list-bodies.ts)
// for the list route (functions/ports.ts ListBodies): a page of consecutive index entries is one
// `pread` straight into the page's buffer, where body by body it was an `open`, a `pread` and a
// `close` per body the asset cache did not hold (every body of a crawler's walk at 100,000
// episodes). Checked once at start against the index and the manifest the server loaded; a file
// that does not match them (missing, cut short, written for other bodies) is not used, and every
// page is read body by body as before. Only the bodies' offsets and ETags are held (~60 bytes an
// episode): the file stays on disk, in the page cache.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { BUILD_FILES, episodeFile } from "../../src/shared/layout.ts";
import { checkedStarts } from "../../src/node/list-bodies.ts";
import type { EpisodeIndex } from "../data/episode-index.ts";
import type { ManifestLookup } from "../data/manifest-table.ts";
import type { ListBodies, ListSpan } from "../ports.ts";
import { StringColumn } from "../data/string-column.ts";

/** `length` bytes at `position`, or null when the file holds fewer. */
function readAt(fd: number, position: number, length: number): Uint8Array | null {
  const out = new Uint8Array(length);
  return readSync(fd, out, 0, length, position) === length ? out : null;
}

export class ListBodiesFile implements ListBodies {
  /**
   * Kept open for the server's life: one system call a page instead of three, and a build that
   * replaces the file (a new file, src/generate/list-bodies.ts) leaves this one to the server that
   * checked it against the index it holds.
   */
  readonly #fd: number;
  /** Where each body starts (src/node/list-bodies.ts bodyStarts). */
  readonly #starts: Float64Array;
  /**
   * The bodies' ETags by index position, as the manifest gives them (what a page's ETag hashes),
   * kept from the check at start: a manifest lookup per body (a path split, two map lookups and a
   * tag encoded) would cost more than reading the page. One column (../data/string-column.ts), not
   * one string per episode.
   */
  readonly #etags: StringColumn;

  private constructor(fd: number, starts: Float64Array, etags: StringColumn) {
    this.#fd = fd;
    this.#starts = starts;
    this.#etags = etags;
  }

  /** The file of `distDir` when it holds exactly the bodies of `index` as `manifest` tags them; else null. */
  static open(distDir: string, index: EpisodeIndex, manifest: ManifestLookup): ListBodiesFile | null {
    let fd: number;
    try {
      fd = openSync(path.join(distDir, BUILD_FILES.listBodies), "r");
    } catch {
      return null;
    }
    try {
      const size = fstatSync(fd).size;
      const checked = checkedStarts(size, (position, length) => readAt(fd, position, length), index.size, () =>
        Array.from({ length: index.size }, (_, i) => manifest.etagOf(episodeFile(index.refAt(i), "json")) ?? ""),
      );
      if (checked === null) throw new Error("not this index's file");
      return new ListBodiesFile(fd, checked.starts, new StringColumn(checked.etags));
    } catch {
      closeSync(fd);
      return null;
    }
  }

  span(from: number, count: number): ListSpan | null {
    if (count === 0 || from < 0 || from + count >= this.#starts.length) return null;
    const start = this.#starts[from]!;
    const length = this.#starts[from + count]! - start - 1;
    const fd = this.#fd;
    return {
      length,
      etags: Array.from({ length: count }, (_, i) => this.#etags.at(from + i)),
      read(out, at) {
        try {
          return readSync(fd, out, at, length, start) === length;
        } catch {
          return false;
        }
      },
    };
  }

  close(): void {
    closeSync(this.#fd);
  }
}
