// The build the Node server serves, taken up by itself when `dist` names a new one
// (docs/architecture.md#the-build, layout in src/shared/node-builds.ts). It watches the pointer's
// folder (and looks at the pointer every few seconds, where the file system reports no change),
// loads the new build whole beside the one it serves (index, manifest, the list's bodies, every
// cache: a new handler), then swaps the two at once. Each request is answered by the handler that
// was current when it arrived, so its status, body, ETag and links come from one build; the old
// build is let go once its last request has its answer (an audio stream by then reads a file it
// holds open). What is not the build's — the rate-limit store, S3 storage, the server — is kept.
//
// Its record (src/shared/node-builds.ts) tells a build which folders it still reads, so that no
// build reuses one of them, and tells `npm run build` and `npm run publish` when it has taken a
// build up (src/generate/build-folder.ts).
import { randomUUID } from "node:crypto";
import { realpathSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import type { ErrorCode } from "../../src/shared/errors.ts";
import { buildIdOf, removeServerRecord, writeServerRecord, type ServerRecord } from "../../src/shared/node-builds.ts";
import type { EpisodeIndex } from "../episode-index.ts";
import type { RequestInfo, Shim, ShimRequest, ShimResponse } from "../handler.ts";
import { isPending } from "../pending.ts";

/** A build loaded and ready to answer. */
export interface LoadedBuild {
  shim: Shim;
  /** Its episode index (what the announcement timer reads of the build served). */
  index: EpisodeIndex;
  /** What the log line of a swap says of it besides its id (its size). */
  summary: string;
  /** Releases what it holds open (the list's bodies' file). */
  close(): void;
}

export type LoadBuild = (folder: string) => Promise<LoadedBuild>;

interface Generation extends LoadedBuild {
  folder: string;
  /** Requests this build has not answered yet. */
  requests: number;
}

/** How often the pointer is looked at besides the watch (a file system without change events). */
const POLL_MS = 2_000;

/** The folder `pointer` names now: a build's folder, or `pointer` itself when it is a folder; null when none. */
function folderOf(pointer: string): string | null {
  try {
    return realpathSync.native(pointer);
  } catch {
    return null;
  }
}

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!;

export class LiveBuild implements Shim {
  readonly #pointer: string;
  readonly #load: LoadBuild;
  readonly #log: (line: string) => void;
  /** Called once a build swapped out is let go: its memory can be handed back. */
  readonly #released: () => void;
  /** This server's record: its name (several servers may run in one process), and whether it can be written. */
  readonly #self: { name: string; recordable: boolean };
  #current: Generation;
  /** Builds swapped out that still have requests to answer. */
  readonly #finishing = new Set<Generation>();
  #taking: string | null = null;
  #failed: ServerRecord["failed"] = null;
  #checking = false;
  #again = false;
  #closed = false;
  readonly #watcher: FSWatcher | null;
  readonly #timer: ReturnType<typeof setInterval>;

  private constructor(pointer: string, self: { name: string; recordable: boolean }, first: Generation, load: LoadBuild, log: (line: string) => void, released: () => void) {
    this.#pointer = pointer;
    this.#self = self;
    this.#current = first;
    this.#load = load;
    this.#log = log;
    this.#released = released;
    const base = path.basename(pointer);
    let watcher: FSWatcher | null = null;
    try {
      watcher = watch(path.dirname(pointer), { persistent: false }, (_event, name) => {
        if (name === null || name === base) this.#check();
      });
      watcher.on("error", () => {});
    } catch {
      watcher = null; // the look every POLL_MS remains
    }
    this.#watcher = watcher;
    this.#timer = setInterval(() => this.#check(), POLL_MS).unref();
  }

  /** Serves the build `pointer` names now, and every later one. */
  static async start(pointer: string, load: LoadBuild, log: (line: string) => void, released: () => void = () => {}): Promise<LiveBuild> {
    const self = { name: `${process.pid}-${randomUUID().slice(0, 8)}`, recordable: true };
    for (;;) {
      const folder = folderOf(pointer);
      if (folder === null) {
        // No build: loading throws, naming the file that is missing (or, made meanwhile, look again).
        (await load(pointer)).close();
        continue;
      }
      // Said before it is read, so that no build reuses it meanwhile; read only if `pointer` still
      // names it (a build may have switched between the look and the record).
      LiveBuild.#write(pointer, self, { pid: process.pid, serving: folder, holding: [folder], taking: null, failed: null }, log);
      if (folderOf(pointer) !== folder) continue;
      try {
        const first: Generation = { ...(await load(folder)), folder, requests: 0 };
        return new LiveBuild(pointer, self, first, load, log, released);
      } catch (e) {
        removeServerRecord(pointer, self.name);
        throw e;
      }
    }
  }

  // Fields, not methods: a Shim's functions are called without their object (functions/handler.ts makes closures).
  readonly handle = (req: ShimRequest, info: RequestInfo): ShimResponse | Promise<ShimResponse> => {
    const g = this.#current;
    g.requests++;
    let answer: ShimResponse | Promise<ShimResponse>;
    try {
      answer = g.shim.handle(req, info);
    } catch (e) {
      this.#answered(g);
      throw e;
    }
    if (!isPending(answer)) {
      this.#answered(g);
      return answer;
    }
    return Promise.resolve(answer).finally(() => this.#answered(g));
  };

  readonly refuse = (code: ErrorCode, method: string, path: string | null): ShimResponse => this.#current.shim.refuse(code, method, path);

  /** The episode index of the build new requests are answered from. */
  get index(): EpisodeIndex {
    return this.#current.index;
  }

  /** The folder of the build new requests are answered from. */
  get folder(): string {
    return this.#current.folder;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#watcher?.close();
    clearInterval(this.#timer);
    for (const g of [this.#current, ...this.#finishing]) g.close();
    this.#finishing.clear();
    removeServerRecord(this.#pointer, this.#self.name);
  }

  #answered(g: Generation): void {
    if (--g.requests === 0 && g !== this.#current && this.#finishing.delete(g)) this.#letGo(g);
  }

  #letGo(g: Generation): void {
    g.close();
    this.#record();
    this.#released();
  }

  /** Takes up the build `pointer` names when it is not the one served; one look at a time. */
  #check(): void {
    if (this.#closed) return;
    if (this.#checking) {
      this.#again = true;
      return;
    }
    this.#checking = true;
    void this.#takeUp().finally(() => {
      this.#checking = false;
      if (this.#again) {
        this.#again = false;
        this.#check();
      }
    });
  }

  async #takeUp(): Promise<void> {
    const folder = folderOf(this.#pointer);
    if (folder === null || folder === this.#current.folder || folder === this.#failed?.folder) return;
    this.#taking = folder;
    this.#record();
    if (folderOf(this.#pointer) !== folder) {
      // Switched again meanwhile: the next look takes up the newest.
      this.#taking = null;
      this.#again = true;
      return this.#record();
    }
    const started = performance.now();
    let loaded: LoadedBuild;
    try {
      loaded = await this.#load(folder);
    } catch (e) {
      this.#taking = null;
      this.#failed = { folder, reason: reasonOf(e) };
      this.#log(`could not take up build ${buildIdOf(folder)}: ${this.#failed.reason}; still serving build ${buildIdOf(this.#current.folder)}`);
      return this.#record();
    }
    if (this.#closed) return loaded.close();
    const old = this.#current;
    this.#current = { ...loaded, folder, requests: 0 };
    this.#taking = null;
    this.#failed = null;
    this.#log(`build ${buildIdOf(folder)} is live: ${loaded.summary} (was build ${buildIdOf(old.folder)}; loaded in ${Math.round(performance.now() - started)} ms)`);
    if (old.requests === 0) this.#letGo(old);
    else {
      this.#finishing.add(old);
      this.#record();
    }
  }

  #record(): void {
    if (this.#closed) return;
    const holding = [...new Set([this.#current.folder, ...[...this.#finishing].map((g) => g.folder), ...(this.#taking === null ? [] : [this.#taking])])];
    LiveBuild.#write(this.#pointer, this.#self, { pid: process.pid, serving: this.#current.folder, holding, taking: this.#taking, failed: this.#failed }, this.#log);
  }

  /** Writes a record; a server that cannot (a read-only disk) says so once and serves on. */
  static #write(pointer: string, self: { name: string; recordable: boolean }, record: ServerRecord, log: (line: string) => void): void {
    try {
      writeServerRecord(pointer, self.name, record);
      self.recordable = true;
    } catch (e) {
      if (self.recordable) log(`cannot write this server's record beside ${path.basename(pointer)} (${reasonOf(e)}): builds will not wait for it`);
      self.recordable = false;
    }
  }
}
