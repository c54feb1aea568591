// The top frames of a V8 CPU profile (`node --cpu-prof`) by self time, as a server's profile under
// load is read: idle samples left out, and with --last only the samples of the final seconds (the
// load run, not the server's start-up before it).
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof scripts/serve.mjs   # then wrk against it, then SIGTERM
//   node scripts/cpu-profile-top.ts /tmp/prof/CPU.*.cpuprofile --last 6
import { readFileSync } from "node:fs";
import { argPath, command } from "./cli.ts";

const CPU_PROFILE_TOP = command({
  name: "cpu-profile-top",
  usage: ["node scripts/cpu-profile-top.ts <profile> [options]"],
  about: `Prints the frames of a .cpuprofile with the most self time, as a share of the busy samples
(idle left out), each with its function, file and line.`,
  options: {
    last: { type: "number", min: 0, help: "only the samples of the profile's last S seconds (the load, not the start-up)", value: "S" },
    top: { type: "integer", min: 1, default: 25, help: "how many frames to print" },
  },
  positionals: [{ name: "profile", help: "a .cpuprofile written by node --cpu-prof" }],
  examples: ["node scripts/cpu-profile-top.ts /tmp/prof/CPU.20261126.cpuprofile --last 6 --top 15"],
});

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = CPU_PROFILE_TOP.parse();
const file = argPath(positionals[0], "");
function read(): Profile {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Profile;
  } catch (e) {
    return CPU_PROFILE_TOP.fail(`cannot read ${file}: ${(e as Error).message}`);
  }
}
const profile = read();
const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
const from = values.last === undefined ? -Infinity : profile.endTime - values.last * 1e6;
const self = new Map<string, number>();
let busy = 0;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  const frame = frames.get(id);
  if (at < from || frame === undefined || frame.functionName === "(idle)") return;
  // Bundled files carry a per-process name (serve-<pid>.mjs): the file's last part is enough.
  const where = frame.url === "" ? "" : ` ${frame.url.split("/").pop()}:${frame.lineNumber + 1}`;
  const key = `${frame.functionName || "(anonymous)"}${where}`;
  self.set(key, (self.get(key) ?? 0) + 1);
  busy++;
});
console.log(`${busy} busy samples${values.last === undefined ? "" : ` in the last ${values.last} s`}`);
for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, values.top)) {
  console.log(`${((100 * n) / Math.max(1, busy)).toFixed(1).padStart(5)}%  ${key}`);
}
