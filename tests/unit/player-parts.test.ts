// The player's pure parts: accent shades with guaranteed contrast, seek coalescing under the audio
// rate limit (on a fake clock), and the times it speaks.
import { describe, expect, it } from "vitest";
import { contrast, paletteOf, parseHex, THEMES, type Theme } from "../../src/shared/accent.ts";
import { seekCoalescer, type Clock } from "../../src/player/seek.ts";
import { clockTime, shortDuration, spokenTime } from "../../src/shared/duration.ts";

describe("accent palette", () => {
  const themes: Theme[] = ["light", "dark"];
  it("every accent, from a grid over the whole colour cube, reaches 4.5:1 against the theme's background", () => {
    for (const theme of themes) {
      for (let r = 0; r < 256; r += 17) {
        for (let g = 0; g < 256; g += 17) {
          for (let b = 0; b < 256; b += 17) {
            const hex = [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
            const p = paletteOf(hex, theme);
            const accent = parseHex(p.accent.slice(1))!;
            expect(contrast(accent, THEMES[theme].background), `${theme} ${hex}`).toBeGreaterThanOrEqual(4.5);
            expect(contrast(accent, parseHex(p.onAccent.slice(1))!)).toBeGreaterThanOrEqual(4.5);
          }
        }
      }
    }
  });

  it("a readable accent is used exactly as given, in any letter case", () => {
    expect(paletteOf("C00000", "light").accent).toBe("#c00000");
    expect(paletteOf("ffd54f", "dark").accent).toBe("#ffd54f");
  });

  it("a malformed accent gives the theme's default", () => {
    for (const bad of [null, "", "fff", "#ffffff", "ff00zz", "ff00001"]) {
      expect(paletteOf(bad, "light")).toEqual(paletteOf(THEMES.light.defaultAccent, "light"));
    }
  });

  it("the theme defaults are themselves readable, so the CSS can state them as they are", () => {
    for (const theme of themes) expect(paletteOf(null, theme).accent).toBe(`#${THEMES[theme].defaultAccent}`);
  });
});

function fakeClock() {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let next = 1;
  const clock: Clock = {
    now: () => now,
    set: (fn, ms) => {
      const id = next++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clear: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  function advance(ms: number) {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      now = due.at;
      timers = timers.filter((t) => t !== due);
      due.fn();
    }
    now = end;
  }
  return { clock, advance };
}

describe("seek coalescing", () => {
  it("a key held for 3 seconds at 30 repeats a second applies at most 2 seeks, the last one at the final target", () => {
    const { clock, advance } = fakeClock();
    const applied: number[] = [];
    const s = seekCoalescer((t) => applied.push(t), clock);
    let t = 0;
    for (let i = 0; i < 90; i++) {
      t += 5;
      s.request(t);
      advance(33);
    }
    advance(1000);
    expect(applied.length).toBeLessThanOrEqual(2);
    expect(applied.at(-1)).toBe(t);
  });

  it("a single press applies once, after the quiet time", () => {
    const { clock, advance } = fakeClock();
    const applied: number[] = [];
    const s = seekCoalescer((t) => applied.push(t), clock);
    s.request(42);
    expect(applied).toEqual([]);
    expect(s.target()).toBe(42);
    advance(400);
    expect(applied).toEqual([42]);
    expect(s.target()).toBeNull();
  });

  it("a held target (slider drag) applies only on flush, however long the drag", () => {
    const { clock, advance } = fakeClock();
    const applied: number[] = [];
    const s = seekCoalescer((t) => applied.push(t), clock);
    for (let i = 0; i < 300; i++) {
      s.hold(i);
      advance(16);
    }
    expect(applied).toEqual([]);
    s.flush();
    expect(applied).toEqual([299]);
  });
});

describe("times", () => {
  it("reads positions as a clock and aloud", () => {
    expect(clockTime(0)).toBe("0:00");
    expect(clockTime(185)).toBe("3:05");
    expect(clockTime(3725)).toBe("1:02:05");
    expect(spokenTime(0)).toBe("0 seconds");
    expect(spokenTime(185)).toBe("3 minutes 5 seconds");
    expect(spokenTime(1440)).toBe("24 minutes");
    expect(spokenTime(3601)).toBe("1 hour 1 second");
    expect(spokenTime(61)).toBe("1 minute 1 second");
    expect(shortDuration(1445)).toBe("24 min");
    expect(shortDuration(45)).toBe("45 s");
  });
});
