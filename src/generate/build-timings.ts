// The build's phases, timed: with BUILD_TIMINGS=1 the build prints, when it is done, one line per
// phase with its wall time and the process's CPU time (its compressing threads' too), and the time
// from the process's start to the first hook (Node, Astro and its config). What each phase costs at 10,000 episodes is in
// docs/performance.md; the bench sets the variable and reads the lines (scripts/bench/build.ts).
import { cpuUsage } from "node:process";

/** Set to "1" to have the build print its phases. */
export const TIMINGS_VARIABLE = "BUILD_TIMINGS";

/** The prefix of each printed line: `phase <name>: <wall> ms wall, <cpu> ms CPU`. */
export const PHASE_LINE = "phase";

interface Phase {
  name: string;
  wallMs: number;
  /** Null for a part of the phase before it (a Stopwatch's), printed as `of which …` and not counted in the total. */
  cpuMs: number | null;
}

interface Clock {
  phases: Phase[];
  wall: number;
  cpu: number;
}

// Kept on globalThis: Astro evaluates the build's modules twice in one process (src/generate/prepare-build.ts).
const CLOCK_KEY = Symbol.for("episode-service.build-timings");
const shared = globalThis as { [CLOCK_KEY]?: Clock };

const cpuMs = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};

function clock(): Clock {
  // The first mark: the phase before it runs from the process's start.
  return (shared[CLOCK_KEY] ??= { phases: [], wall: 0, cpu: 0 });
}

const timingsOn = () => process.env[TIMINGS_VARIABLE] === "1";

/**
 * Wall time spent in one kind of step spread over a phase (a step per episode): printed as a part
 * of it. Wall time only: asking for the CPU time costs a system call, 10,000 of them a measurable share.
 */
export class Stopwatch {
  wallMs = 0;

  time<T>(work: () => T): T {
    if (!timingsOn()) return work();
    const wall = performance.now();
    try {
      return work();
    } finally {
      this.wallMs += performance.now() - wall;
    }
  }
}

/** Ends the phase running now, naming it `name`, with the parts timed within it; the next phase starts here. */
export function endPhase(name: string, parts: Record<string, Stopwatch> = {}): void {
  if (!timingsOn()) return;
  const c = clock();
  const wall = performance.now();
  const cpu = cpuMs();
  c.phases.push({ name, wallMs: wall - c.wall, cpuMs: cpu - c.cpu });
  for (const [part, w] of Object.entries(parts)) c.phases.push({ name: part, wallMs: w.wallMs, cpuMs: null });
  c.wall = wall;
  c.cpu = cpu;
}

/**
 * The first mark of a build: its first phase is what ran before (from the process's start, or from
 * the end of the last build of a process that builds several times, as the tests' build service does).
 */
export function startPhases(name: string): void {
  if (timingsOn()) clock().phases = [];
  endPhase(name);
}

/** Ends the phase running now unless a phase of that name ended already (a hook Astro may call twice). */
export function endPhaseOnce(name: string): void {
  if (!clock().phases.some((p) => p.name === name)) endPhase(name);
}

/** The phases so far, as printed lines; none unless BUILD_TIMINGS=1. */
export function phaseLines(): string[] {
  if (!timingsOn()) return [];
  const c = clock();
  const whole = c.phases.filter((p) => p.cpuMs !== null);
  const total = whole.reduce((t, p) => ({ wall: t.wall + p.wallMs, cpu: t.cpu + (p.cpuMs ?? 0) }), { wall: 0, cpu: 0 });
  return [...c.phases, { name: "total", wallMs: total.wall, cpuMs: total.cpu }].map((p) =>
    p.cpuMs === null ? `${PHASE_LINE}   of which ${p.name}: ${Math.round(p.wallMs)} ms wall` : `${PHASE_LINE} ${p.name}: ${Math.round(p.wallMs)} ms wall, ${Math.round(p.cpuMs)} ms CPU`,
  );
}
