// The player's script: upgrades the server-rendered page (native <audio controls> without it) to
// the custom controls; posts {source, event, id, episodeNumber} to the parent; keyboard, speed,
// coalesced seeking, error and retry, Media Session, and one-at-a-time playback across the
// site's embeds on a page; a start moment from the URL (`t=`), the chapters' titles, marks and
// keys, and commands from the parent page (docs/player.md). No framework, no storage, no cookies,
// no requests of its own.
import { clockTime, spokenTime } from "../shared/duration.ts";
import { momentOf } from "../shared/moment.ts";
import { seekCoalescer } from "./seek.ts";

const SOURCE = "service-embed";
const RATES = [0.75, 1, 1.25, 1.5, 1.75, 2];
const STEP_SECONDS = 5;
const PAGE_SECONDS = 30;
/** Previous chapter within this many seconds of a chapter's start goes to the chapter before. */
const CHAPTER_GRACE = 3;

type PlayerEvent = "ready" | "play" | "pause" | "ended";

/** An element the server-rendered player always holds (src/pages/embed/[ref].astro). */
const $ = <T extends Element>(root: ParentNode, selector: string) => root.querySelector<T>(selector)!;

function init(): void {
  const html = document.documentElement;
  // The shim sets data-theme and, for a valid accent=, the palette with its contrast guaranteed
  // (src/shared/accent.ts): applied as CSSOM custom properties, which the CSP allows. A plain
  // static host sets neither, so theme=dark is read here too.
  if (new URLSearchParams(location.search).get("theme") === "dark") html.dataset.theme = "dark";
  const { accent, onAccent } = html.dataset;
  if (accent && onAccent) {
    html.style.setProperty("--accent", accent);
    html.style.setProperty("--on-accent", onAccent);
  }

  const root = $<HTMLElement>(document, "#player");
  const audio = $<HTMLAudioElement>(root, "audio");
  const playButton = $<HTMLButtonElement>(root, ".play");
  const slider = $<HTMLInputElement>(root, ".seek");
  const now = $<HTMLElement>(root, ".time .now");
  const total = $<HTMLElement>(root, ".time .total");
  const speed = $<HTMLButtonElement>(root, ".speed");
  const errorBox = $<HTMLElement>(root, ".error");
  const retry = $<HTMLButtonElement>(root, ".retry");

  const id = root.dataset.id ?? "";
  const episodeNumber = root.dataset.number ? Number(root.dataset.number) : null;
  const title = root.dataset.title ?? "";
  const show = root.dataset.show ?? "";
  let duration: number | null = root.dataset.duration ? Number(root.dataset.duration) : null;
  // Timed chapters, rendered by the build: each item's data-t is its start; the current one is shown.
  const chapters = [...root.querySelectorAll<HTMLElement>(".chapters li")];
  const startOf = (k: number) => Number(chapters[k]!.dataset.t);
  /** The chapter playing at `t`: the last one started by then (-1 before the first). */
  const chapterAt = (t: number) => chapters.findLastIndex((_, k) => startOf(k) <= t);

  /** Whether the audio has been asked to load (first play): before it, nothing touches the network. */
  let started = false;
  /** Where the first play starts (seeks before it only move this). */
  let startAt = 0;
  /** Last known position, kept for a retry after an error. */
  let lastTime = 0;
  /** Where playback pauses by itself (`t=start,end`), until the listener moves elsewhere. */
  let stopAt: number | null = null;
  let rateIndex = RATES.indexOf(1);
  /** What the parent was last told, so that each change is posted exactly once. */
  let told: PlayerEvent | null = null;

  // Media Session: lock screen and hardware keys.
  const session = "mediaSession" in navigator ? navigator.mediaSession : null;
  // One embed of this site plays at a time on a page: starting one pauses the others.
  const me = Math.random().toString(36).slice(2);
  let channel: BroadcastChannel | null = null;
  try {
    channel = "BroadcastChannel" in window ? new BroadcastChannel(SOURCE) : null;
  } catch {
    channel = null;
  }
  function post(event: PlayerEvent): void {
    told = event;
    if (window.parent === window) return;
    try {
      window.parent.postMessage({ source: SOURCE, event, id, episodeNumber }, "*");
    } catch {
      // A parent that cannot be reached is not the listener's problem.
    }
  }

  const seeker = seekCoalescer((t) => {
    audio.currentTime = t;
  });

  function lengthText(): string {
    return duration === null ? "unknown length" : spokenTime(duration);
  }

  function render(t: number): void {
    const c = chapterAt(t);
    chapters.forEach((li, k) => li.classList.toggle("on", k === c));
    slider.value = String(Math.round(t));
    // The played part of the track (player.css): CSSOM, which the CSP allows.
    slider.style.setProperty("--p", duration ? `${Math.min(100, (t / duration) * 100)}%` : "0%");
    slider.setAttribute("aria-valuetext", `${spokenTime(t)} of ${lengthText()}${c < 0 ? "" : `, ${chapters[c]!.textContent}`}`);
    now.textContent = clockTime(t);
  }

  function position(): number {
    return seeker.target() ?? (started ? audio.currentTime : startAt);
  }

  /** Moves to `t` (clamped): at once, coalesced (default), or held until the slider is released. */
  function seekTo(t: number, mode: "now" | "soon" | "hold" = "soon"): void {
    const clamped = Math.max(0, duration === null ? t : Math.min(t, duration));
    stopAt = null;
    render(clamped);
    if (!started) {
      startAt = clamped;
      return;
    }
    if (mode === "hold") return seeker.hold(clamped);
    seeker.request(clamped);
    if (mode === "now") seeker.flush();
  }

  function setDuration(d: number): void {
    duration = d;
    slider.max = String(Math.round(d));
    slider.disabled = false;
    total.textContent = clockTime(d);
    // A mark on the track where each chapter after the first starts: a notch in the background's colour.
    if (chapters.length > 1) {
      const marks = chapters.slice(1).map((li) => {
        const at = `${(Number(li.dataset.t) / d) * 100}%`;
        return `transparent 0 ${at},var(--bg) 0 calc(${at} + 2px)`;
      });
      slider.style.setProperty("--marks", `linear-gradient(90deg,${marks},transparent 0)`);
    }
    render(position());
  }

  function setPlaying(playing: boolean): void {
    root.classList.toggle("playing", playing);
    playButton.setAttribute("aria-label", playing ? "Pause" : "Play");
  }

  function showError(): void {
    setPlaying(false);
    if (told === "play") post("pause");
    errorBox.hidden = false;
  }

  function play(): void {
    errorBox.hidden = true;
    if (!started) {
      started = true;
      if (startAt > 0) audio.currentTime = startAt;
    }
    seeker.flush();
    const p = audio.play();
    p?.catch((e: unknown) => {
      const name = e instanceof DOMException ? e.name : "";
      // AbortError: a pause or a new load interrupted it; NotAllowedError: no user gesture yet (a
      // parent's play command), so nothing loaded and the next play starts where this one would have.
      if (name === "NotAllowedError") started = false;
      else if (name !== "AbortError") showError();
    });
  }

  function toggle(): void {
    if (audio.paused || audio.ended) play();
    else audio.pause();
  }

  // Upgrade: the custom controls replace the native one (player.css draws them from the first
  // paint where scripts run, so this moves nothing).
  audio.controls = false;
  root.classList.add("upgraded");

  audio.addEventListener("play", () => {
    setPlaying(true);
    if (told !== "play") post("play");
    channel?.postMessage({ type: "play", from: me });
    if (session && "MediaMetadata" in window) session.metadata = new MediaMetadata({ title, artist: show, album: show });
  });
  audio.addEventListener("pause", () => {
    // At a natural end the element pauses and then ends: only `ended` is posted.
    if (audio.ended) return;
    setPlaying(false);
    if (told === "play") post("pause");
  });
  audio.addEventListener("ended", () => {
    setPlaying(false);
    post("ended");
  });
  audio.addEventListener("timeupdate", () => {
    lastTime = audio.currentTime;
    if (stopAt !== null && lastTime >= stopAt) {
      stopAt = null;
      audio.pause();
    }
    if (seeker.target() === null) render(audio.currentTime);
  });
  audio.addEventListener("loadedmetadata", () => {
    if (duration === null && Number.isFinite(audio.duration)) setDuration(audio.duration);
  });
  audio.addEventListener("error", showError);

  playButton.addEventListener("click", toggle);
  // A drag seeks once, on release; assistive technology sends input then change per step.
  slider.addEventListener("input", () => seekTo(Number(slider.value), "hold"));
  slider.addEventListener("change", () => seeker.flush());
  slider.addEventListener("pointerup", () => seeker.flush());
  slider.addEventListener("pointercancel", () => seeker.flush());
  speed.addEventListener("click", () => {
    rateIndex = (rateIndex + 1) % RATES.length;
    const rate = RATES[rateIndex]!;
    audio.defaultPlaybackRate = rate;
    audio.playbackRate = rate;
    speed.textContent = `${rate}×`;
    speed.setAttribute("aria-label", `Playback speed ${rate}×`);
  });
  retry.addEventListener("click", () => {
    const at = lastTime;
    errorBox.hidden = true;
    playButton.focus();
    audio.load();
    started = false;
    startAt = at;
    play();
  });

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    const key = e.key;
    if (key === " " || key === "k" || key === "K") {
      // Space keeps its native meaning on the other buttons (speed, retry).
      if (key === " " && target instanceof HTMLButtonElement && target !== playButton) return;
      e.preventDefault();
      if (!e.repeat) toggle();
      return;
    }
    const onSlider = target === slider;
    let to: number | null = null;
    if (e.shiftKey && chapters.length > 0 && (key === "ArrowLeft" || key === "ArrowRight")) {
      // The next chapter; the previous one, or the start of this one when well into it.
      const p = position();
      const c = chapterAt(p);
      const k = key === "ArrowRight" ? c + 1 : c < 0 || p - startOf(c) > CHAPTER_GRACE ? c : c - 1;
      if (k < chapters.length) to = k < 0 ? 0 : startOf(k);
      else return e.preventDefault();
    } else if (key === "ArrowLeft" || (onSlider && key === "ArrowDown")) to = position() - STEP_SECONDS;
    else if (key === "ArrowRight" || (onSlider && key === "ArrowUp")) to = position() + STEP_SECONDS;
    else if (onSlider && key === "PageDown") to = position() - PAGE_SECONDS;
    else if (onSlider && key === "PageUp") to = position() + PAGE_SECONDS;
    else if (onSlider && key === "Home") to = 0;
    else if (onSlider && key === "End" && duration !== null) to = duration;
    if (to === null) return;
    e.preventDefault();
    seekTo(to);
  });
  // A button clicks on Space's keyup; the keydown above already toggled.
  document.addEventListener("keyup", (e) => {
    if (e.key === " " && e.target === playButton) e.preventDefault();
  });

  // Media Session: lock screen and hardware keys.
  if (session) {
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", () => play()],
      ["pause", () => audio.pause()],
      ["seekbackward", (d) => seekTo(position() - (d.seekOffset ?? STEP_SECONDS))],
      ["seekforward", (d) => seekTo(position() + (d.seekOffset ?? STEP_SECONDS))],
      ["seekto", (d) => seekTo(d.seekTime ?? position(), d.fastSeek ? "soon" : "now")],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
  }

  if (channel) {
    channel.onmessage = (m: MessageEvent) => {
      const data = m.data as { type?: string; from?: string } | null;
      if (data?.type === "play" && data.from !== me && !audio.paused) audio.pause();
    };
  }

  // Commands from the parent page (docs/player.md#commands); anything else is ignored.
  addEventListener("message", (e: MessageEvent) => {
    const d = e.data as { source?: unknown; command?: unknown; time?: unknown } | null;
    if (e.source !== window.parent || e.source === window || d?.source !== SOURCE) return;
    if (d.command === "play") play();
    else if (d.command === "pause") audio.pause();
    else if (d.command === "seek" && Number.isFinite(d.time) && (d.time as number) >= 0) seekTo(d.time as number, "now");
    // The answer goes to the asker alone; the events of the specification stay as they are.
    else if (d.command === "position") window.parent.postMessage({ source: SOURCE, answer: "position", time: position(), id, episodeNumber }, "*");
  });

  if (duration !== null) setDuration(duration);
  // t= in the fragment or the query (an invalid one, or one past the end, is ignored): shown before
  // play, played from; a new fragment (the parent changed the iframe's src) moves there.
  const startAtMoment = () => {
    const moment = momentOf(location);
    if (moment !== null && (duration === null || moment.start < duration)) {
      seekTo(moment.start, "now");
      stopAt = moment.end;
    }
  };
  startAtMoment();
  addEventListener("hashchange", startAtMoment);
  post("ready");
  // A listener who pressed the native control before this script ran is already playing.
  if (audio.readyState > 0 || !audio.paused) started = true;
  if (!audio.paused) {
    setPlaying(true);
    post("play");
  }
}

init();
