// The episode page's own script (src/pages/episodes/[ref].astro; a file: the pages' CSP allows no
// inline script). A time link plays the embedded player from its moment without leaving the page;
// `#t=` on the page starts the player there; "Link to this moment" asks the player where it is and
// gives the page's URL at that time. Without this script a time link is the page's URL with `?t=`,
// which the shim answers with the player starting there (functions/routes/site.ts). Commands and
// the position answer: docs/player.md#commands.
//
// It reads no time as people write them: its links carry the seconds the build wrote, and a `#t=`
// goes to the player as it is, which reads it (src/shared/moment.ts). Importing that module here
// too would make the bundler split it into a chunk of its own: a fourth request for the player.

const SOURCE = "service-embed";

function init(): void {
  const frame = document.querySelector<HTMLIFrameElement>(".player iframe");
  if (frame === null) return;
  const origin = new URL(frame.src).origin;
  /** Commands wait until the player has spoken once (its `ready`, or the answer to the question below). */
  let ready = false;
  let queue: object[] = [];
  /** Whether the listener asked for a link: the position answer is then turned into one. */
  let wanted = false;

  const post = (message: object) => frame.contentWindow?.postMessage(message, origin);
  function send(command: string, time?: number): void {
    const message = time === undefined ? { source: SOURCE, command } : { source: SOURCE, command, time };
    if (ready) return void post(message);
    queue.push(message);
    // A lazy iframe far from view has not loaded yet.
    frame!.loading = "eager";
  }

  const button = document.querySelector<HTMLButtonElement>(".moment button");
  const out = document.querySelector<HTMLElement>(".moment output");
  function showLink(time: number): void {
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href ?? location.href.split(/[?#]/)[0];
    const url = `${canonical}?t=${Math.floor(time)}`;
    const a = document.createElement("a");
    a.href = url;
    a.textContent = url;
    out?.replaceChildren(a);
    navigator.clipboard?.writeText(url).then(
      () => out?.append(" (copied)"),
      () => {},
    );
  }

  // The player reads #t= itself, before it loads or, once loaded, when its fragment changes. It is
  // handed over once the player has spoken: a src changed while the frame's first load is under way
  // can be dropped by the browser. A moment the listener already chose (a queued command) wins.
  const t = new URLSearchParams(location.hash.slice(1)).get("t");

  addEventListener("message", (e: MessageEvent) => {
    const data = e.data as { source?: unknown; answer?: unknown; time?: unknown } | null;
    if (e.source !== frame.contentWindow || data?.source !== SOURCE) return;
    if (!ready) {
      ready = true;
      if (t !== null && queue.length === 0) frame.src = `${frame.src.split("#")[0]}#t=${encodeURIComponent(t)}`;
      queue.forEach(post);
      queue = [];
    }
    if (data.answer === "position" && wanted && typeof data.time === "number") {
      wanted = false;
      showLink(data.time);
    }
  });
  // A player that was ready before this script ran answers this; one that was not posts ready later.
  post({ source: SOURCE, command: "position" });

  document.addEventListener("click", (e) => {
    const link = e.target instanceof Element ? e.target.closest<HTMLAnchorElement>("a.t") : null;
    // A modified or middle click opens the link as a link.
    if (link === null || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const time = Number(new URL(link.href).searchParams.get("t"));
    if (!(time >= 0)) return;
    e.preventDefault();
    send("seek", time);
    send("play");
  });

  button?.addEventListener("click", () => {
    wanted = true;
    send("position");
  });
}

init();
