// Imported by ./own-process.ts, before the process's first forced major collection.
//
// Holds one of Node's tick objects for the process's life. process.nextTick makes each with one
// object literal, and V8 specialises that literal for the map its objects first had. A major
// collection at a moment when no tick is pending frees that map; the next tick object then gets a
// new one, and V8, having met a second map there, defines the literal's properties the generic way
// on every later tick, several per request. A tick object held keeps its map alive
// (docs/performance.md).
import { createHook } from "node:async_hooks";

let held: object | null = null;
const hook = createHook({
  init(_id, type, _trigger, resource) {
    if (type === "TickObject") held = resource as object;
  },
});
hook.enable();
process.nextTick(() => {});
hook.disable();

/** Exported so that it stays referenced (tests/unit/hold-tick-map.test.ts reads it). */
export const heldTickObject = held;
