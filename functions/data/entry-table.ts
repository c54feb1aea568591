// The index's entries held by column: numbers in typed arrays, each string field of every entry in
// one string (./string-column.ts), so a large index is a few dozen heap objects instead of several
// per episode. A request gets its entries as fresh objects, made for the few episodes it answers with.
import { scriptState, type IndexEntry } from "../../src/shared/schema/build-index.ts";
import type { OrderKey } from "../../src/shared/order.ts";
import { StringColumn } from "./string-column.ts";

const SCRIPT_STATES = scriptState.options;

/** The entries, by column, in list order. */
export class EntryTable {
  readonly size: number;
  readonly p: Float64Array;
  readonly s: Float64Array;
  /** The episode number, NaN for none. */
  readonly n: Float64Array;
  readonly #id: StringColumn;
  readonly #ref: StringColumn;
  readonly #title: StringColumn;
  /** Position in #domainLists: equal lists are one shared array. */
  readonly #domains: Uint32Array;
  readonly #domainLists: string[][];
  /** Position in SCRIPT_STATES. */
  readonly #script: Uint8Array;
  readonly #transcript: Uint8Array;
  readonly #hasAudio: Uint8Array;
  /** The audio's bytes, NaN for null. */
  readonly #audioBytes: Float64Array;
  readonly #audioKey: StringColumn;
  readonly #audioEtag: StringColumn;

  /** `fill` calls `add` once per entry, in list order: the entries need not all exist at once. */
  constructor(fill: (add: (e: IndexEntry) => void) => void) {
    const p: number[] = [];
    const s: number[] = [];
    const n: number[] = [];
    const domains: number[] = [];
    const script: number[] = [];
    const transcript: number[] = [];
    const hasAudio: number[] = [];
    const audioBytes: number[] = [];
    const id: string[] = [];
    const ref: string[] = [];
    const title: string[] = [];
    const audioKey: string[] = [];
    const audioEtag: string[] = [];
    const lists = new Map<string, number>();
    this.#domainLists = [];
    fill((e) => {
      p.push(e.p);
      s.push(e.s);
      n.push(e.n ?? NaN);
      const key = JSON.stringify(e.domains);
      let list = lists.get(key);
      if (list === undefined) lists.set(key, (list = this.#domainLists.push([...e.domains]) - 1));
      domains.push(list);
      script.push(SCRIPT_STATES.indexOf(e.script));
      transcript.push(e.transcript ? 1 : 0);
      hasAudio.push(e.audio === null ? 0 : 1);
      audioBytes.push(e.audio?.bytes ?? NaN);
      id.push(e.id);
      ref.push(e.ref);
      title.push(e.title);
      audioKey.push(e.audio?.key ?? "");
      audioEtag.push(e.audio?.etag ?? "");
    });
    this.size = p.length;
    this.p = Float64Array.from(p);
    this.s = Float64Array.from(s);
    this.n = Float64Array.from(n);
    this.#domains = Uint32Array.from(domains);
    this.#script = Uint8Array.from(script);
    this.#transcript = Uint8Array.from(transcript);
    this.#hasAudio = Uint8Array.from(hasAudio);
    this.#audioBytes = Float64Array.from(audioBytes);
    this.#id = new StringColumn(id);
    this.#ref = new StringColumn(ref);
    this.#title = new StringColumn(title);
    this.#audioKey = new StringColumn(audioKey);
    this.#audioEtag = new StringColumn(audioEtag);
  }

  id(i: number): string {
    return this.#id.at(i);
  }

  /** Whether entry i's id is `id`, without making a string of it. */
  idIs(i: number, id: string): boolean {
    return this.#id.is(i, id);
  }

  number(i: number): number | null {
    const n = this.n[i]!;
    return Number.isNaN(n) ? null : n;
  }

  ref(i: number): string {
    return this.#ref.at(i);
  }

  script(i: number): IndexEntry["script"] {
    return SCRIPT_STATES[this.#script[i]!]!;
  }

  transcript(i: number): boolean {
    return this.#transcript[i] === 1;
  }

  domainsOf(i: number): readonly string[] {
    return this.#domainLists[this.#domains[i]!]!;
  }

  audioKey(i: number): string | null {
    return this.#hasAudio[i] === 1 ? this.#audioKey.at(i) : null;
  }

  orderKey(i: number): OrderKey {
    return { p: this.p[i]!, n: this.number(i) ?? -1, id: this.id(i) };
  }

  /** Entry i as the schema's object (a new one on every call). */
  entry(i: number): IndexEntry {
    const bytes = this.#audioBytes[i]!;
    return {
      id: this.id(i),
      n: this.number(i),
      p: this.p[i]!,
      s: this.s[i]!,
      ref: this.#ref.at(i),
      title: this.#title.at(i),
      domains: this.domainsOf(i) as string[],
      script: this.script(i),
      transcript: this.transcript(i),
      audio: this.#hasAudio[i] === 1 ? { key: this.#audioKey.at(i), bytes: Number.isNaN(bytes) ? null : bytes, etag: this.#audioEtag.at(i) } : null,
    };
  }
}

