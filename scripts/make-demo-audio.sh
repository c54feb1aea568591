#!/usr/bin/env bash
# Synthesise demo audio for the content folder, and time the scripts from it.
#
# For every episode folder that has a script.json and whose episode.json names an audio file
# (audio.file), speak each spoken segment with espeak-ng (host "a" and host "b" get distinct voices;
# stage directions such as [laughs] or *sighs* are removed by the build's own rule, and a segment
# left empty is not spoken), trim each segment's synthesis to its speech (espeak-ng pads it with
# silence), join the segments with PAUSE seconds of silence between two (and after the last),
# encode a small mono MP3 with lame, and write back:
#   - into script.json, each spoken segment's start and end: where its speech starts and ends in
#     the MP3, in seconds to the millisecond. They are counted in samples while joining, then moved
#     by the delay the MP3 adds before the first sound (lame's encoder delay and the decoder's: at
#     this bitrate a frame is too small for the LAME tag that lets decoders remove it, so every
#     player plays it), measured on a click encoded with the same options and decoded by ffmpeg;
#     every segment's speech in the decoded MP3 is checked to start and end within 60 ms of its
#     times (the encoder's pre-echo makes speech seem to start a little early). A segment left
#     empty by its stage directions carries no times (the build drops it).
#   - into script.json, each chapter's start, moved with the segment it begins at: a chapter's
#     start is 0 (the start of the audio) or equals, to the millisecond, the start of the spoken
#     segment the chapter begins at, and re-synthesis gives it that segment's new start. To give a
#     chapter its start, copy the start of its first segment into it (or 0 for the first chapter);
#     a chapter whose start is no segment's makes the script stop before synthesising, naming it.
#   - into episode.json, durationSeconds, audio.bytes and audio.sha256.
# PAUSE stays longer than the longest pause espeak-ng makes inside a segment (about 0.4 s at 170
# words per minute, between sentences), so a turn's end is heard as the longest silence around it.
#
# Idempotent: an MP3 that is newer than its script.json is kept (set FORCE=1 to re-synthesise);
# the metadata in episode.json is always refreshed from the file.
#
# Usage: scripts/make-demo-audio.sh [content-dir]     (default: $CONTENT_DIR or ./content)
# Requires: espeak-ng, ffmpeg/ffprobe, lame, and the checkout's node_modules (its pinned Node runs
# scripts/demo-audio/step.ts).
set -euo pipefail

usage() {
  cat <<'EOF'
make-demo-audio: speaks every episode's script.json with espeak-ng into the MP3 its episode.json
names (audio.file), writes into script.json where each segment's speech starts and ends in the MP3
(and moves each chapter's start with the segment it begins at), and writes durationSeconds,
audio.bytes and audio.sha256 into episode.json. An MP3 newer than its script.json is kept unless
FORCE=1. Needs espeak-ng, ffmpeg/ffprobe, lame and the checkout's node_modules.

Usage:
  scripts/make-demo-audio.sh [content-dir]

Arguments:
  [content-dir]  the content folder [default: $CONTENT_DIR or ./content]

Environment: VOICE_A, VOICE_B (espeak-ng voices), SPEED (words per minute), PAUSE (seconds between
segments), BITRATE (kbps), RESAMPLE (kHz), FORCE=1.

Options:
  -h, --help     print this help and exit

Example:
  FORCE=1 scripts/make-demo-audio.sh content
EOF
}
for arg in "$@"; do
  case "$arg" in
    -h | --help) usage; exit 0 ;;
    -*) echo "make-demo-audio: unknown option $arg; see --help" >&2; exit 2 ;;
  esac
done
[ $# -le 1 ] || { echo "make-demo-audio: unexpected argument '$2'; see --help" >&2; exit 2; }

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CONTENT="${1:-${CONTENT_DIR:-$ROOT/content}}"
# The pinned Node first, as npm runs scripts: the steps are TypeScript and share the build's code.
PATH="$ROOT/node_modules/.bin:$PATH"
STEP="$ROOT/scripts/demo-audio/step.ts"
VOICE_A="${VOICE_A:-en-us+f3}"
VOICE_B="${VOICE_B:-en-gb+m3}"
SPEED="${SPEED:-170}"              # words per minute
PAUSE="${PAUSE:-0.6}"              # seconds of silence between segments (see the header)
BITRATE="${BITRATE:-32}"           # kbps, CBR
RESAMPLE="${RESAMPLE:-22.05}"      # kHz
FORCE="${FORCE:-0}"

for tool in espeak-ng ffmpeg ffprobe lame node; do
  command -v "$tool" >/dev/null 2>&1 || { echo "make-demo-audio: missing tool: $tool" >&2; exit 1; }
done
node -e 'process.exit(process.features.typescript ? 0 : 1)' || { echo "make-demo-audio: node $(node --version) cannot run TypeScript; run npm install in $ROOT" >&2; exit 1; }
[ -d "$CONTENT/episodes" ] || { echo "make-demo-audio: no episodes folder in $CONTENT" >&2; exit 1; }

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Prints the episode.json audio.file member, or nothing.
audio_file() {
  node -e '
    const e = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (e.audio && typeof e.audio.file === "string") process.stdout.write(e.audio.file);' "$1"
}

# update_metadata <episode.json> <durationSeconds> <bytes> <sha256>
update_metadata() {
  node -e '
    const fs = require("fs");
    const [file, dur, bytes, sha] = process.argv.slice(1);
    const e = JSON.parse(fs.readFileSync(file, "utf8"));
    e.audio = { ...e.audio, bytes: Number(bytes), sha256: sha };
    // keep durationSeconds next to the other timing fields when adding it
    const out = {};
    let placed = false;
    for (const [k, v] of Object.entries(e)) {
      if (k === "durationSeconds") continue;
      if (!placed && (k === "sourceUrl" || k === "coverImageUrl" || k === "hosts")) { out.durationSeconds = Number(dur); placed = true; }
      out[k] = v;
    }
    if (!placed) out.durationSeconds = Number(dur);
    const next = JSON.stringify(out, null, 2) + "\n";
    if (next !== fs.readFileSync(file, "utf8")) fs.writeFileSync(file, next);' "$@"
}

# encode <wav> <mp3>: the one set of lame options, for the episode and for the probe that measures its delay.
encode() {
  lame --quiet --noreplaygain -m m --resample "$RESAMPLE" -b "$BITRATE" --cbr "$1" "$2"
}

count=0
for dir in "$CONTENT"/episodes/*/; do
  dir="${dir%/}"
  ep="$dir/episode.json"
  script="$dir/script.json"
  [ -f "$ep" ] && [ -f "$script" ] || continue
  rel="$(audio_file "$ep")"
  [ -n "$rel" ] || continue
  mp3="$dir/$rel"
  name="$(basename "$dir")"

  if [ "$FORCE" = "1" ] || [ ! -s "$mp3" ] || [ "$script" -nt "$mp3" ]; then
    work="$TMP/$name"
    mkdir -p "$work"
    # Read first: a script whose chapters lost their segments stops here, before any synthesis.
    node "$STEP" segments "$script" > "$work/segments.tsv"
    i=0
    while IFS=$'\t' read -r at speaker text; do
      case "$speaker" in
        a) voice="$VOICE_A" ;;
        b) voice="$VOICE_B" ;;
        *) voice="$VOICE_A" ;;
      esac
      i=$((i + 1))
      # Text goes through stdin so that a segment starting with "-" is never read as an option.
      printf '%s\n' "$text" | espeak-ng -v "$voice" -s "$SPEED" -w "$work/seg-$(printf '%04d' "$at").wav"
    done < "$work/segments.tsv"
    [ "$i" -gt 0 ] || { echo "make-demo-audio: $script has no speakable segments, skipped" >&2; continue; }

    node "$STEP" join "$work" "$PAUSE"
    encode "$work/all.wav" "$work/out.mp3"
    encode "$work/probe.wav" "$work/probe.mp3"
    node "$STEP" record "$script" "$work/out.mp3" "$work"
    mv "$work/out.mp3" "$mp3"
    # Newer than the script.json just written, so the next run keeps it.
    touch "$mp3"
    rm -rf "$work"
    echo "make-demo-audio: wrote $mp3"
  else
    echo "make-demo-audio: $mp3 is up to date"
  fi

  dur="$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$mp3")"
  dur="$(node -e 'process.stdout.write(String(Math.round(Number(process.argv[1]))))' "$dur")"
  bytes="$(wc -c < "$mp3" | tr -d ' ')"
  sha="$(sha256sum "$mp3" | cut -d' ' -f1)"
  update_metadata "$ep" "$dur" "$bytes" "$sha"
  count=$((count + 1))
done

echo "make-demo-audio: $count episode(s) with audio in $CONTENT"
