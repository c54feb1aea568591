// functions/node/hold-tick-map.ts: after major collections at moments with no tick pending, the
// tick objects Node makes still have the map of the one held, so process.nextTick's object literal
// keeps meeting one map. V8's %HaveSameMap needs --allow-natives-syntax: the check runs in a child
// process of the same Node.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MODULE = path.join(ROOT, "functions/node/hold-tick-map.ts");

const CHILD = `
import { createHook } from "node:async_hooks";
const { heldTickObject } = await import(${JSON.stringify(MODULE)});
/** The object of the next process.nextTick, caught as its async resource. */
function nextTickObject() {
  let caught = null;
  const hook = createHook({ init(_id, type, _trigger, resource) { if (type === "TickObject") caught = resource; } }).enable();
  process.nextTick(() => {});
  hook.disable();
  return caught;
}
const same = [];
for (let i = 0; i < 3; i++) {
  // Ticks of every arity and argument kind in between, as node:http schedules them.
  process.nextTick(() => {}, i);
  process.nextTick(() => {}, "a", { b: i }, [i]);
  process.nextTick(function named() {});
  // No tick pending: the collection runs from a timer, after the queue has drained.
  await new Promise((resolve) => setTimeout(resolve, 5));
  gc({ type: "major", execution: "sync", flavor: i === 2 ? "last-resort" : "regular" });
  same.push(%HaveSameMap(heldTickObject, nextTickObject()));
}
console.log(JSON.stringify({ fields: Object.keys(heldTickObject), same }));
`;

describe("the held tick object", () => {
  it("shares its map with the tick objects made after major collections", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--allow-natives-syntax", "--expose-gc", "--input-type=module", "-e", CHILD], { cwd: ROOT });
    const result = JSON.parse(stdout) as { fields: string[]; same: boolean[] };
    expect(result.fields).toEqual(["callback", "args"]);
    expect(result.same).toEqual([true, true, true]);
  });

  it("is held, with the young generation's setting, before a serving process loads the server", () => {
    const source = readFileSync(path.join(ROOT, "functions/node/own-process.ts"), "utf8");
    const imports = source.match(/^import .*$/gm) ?? [];
    expect(imports.slice(0, 2)).toEqual(['import "./young-generation.ts";', 'import "./hold-tick-map.ts";']);
    // main.ts only once they ran: imported when startOwnServer is called, never statically.
    expect(imports.filter((i) => i.includes("./main.ts") && !i.startsWith("import type"))).toEqual([]);
    expect(source).toContain('await import("./main.ts")');
    for (const entry of ["scripts/serve.ts", "tests/support/fuzz-server.ts"]) {
      const code = readFileSync(path.join(ROOT, entry), "utf8");
      expect(code, entry).toContain('/node/own-process.ts");');
      expect(code, entry).toContain("await startOwnServer(");
      expect(code, entry).not.toContain("/node/main.ts\");");
    }
  });
});
