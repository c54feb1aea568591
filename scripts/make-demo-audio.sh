#!/usr/bin/env bash
# Synthesise demo audio for the content folder.
#
# For every episode folder that has a script.json and whose episode.json names
# an audio file (audio.file), speak each script segment with espeak-ng (host "a"
# and host "b" get distinct voices; stage directions such as [laughs] or *sighs*
# are stripped), join the segments with short pauses, encode to a small mono MP3
# with lame, and write durationSeconds, audio.bytes and audio.sha256 back into
# episode.json.
#
# Idempotent: an MP3 that is newer than its script.json is kept (set FORCE=1 to
# re-synthesise); the metadata in episode.json is always refreshed from the file.
#
# Usage: scripts/make-demo-audio.sh [content-dir]     (default: $CONTENT_DIR or ./content)
# Requires: espeak-ng, ffmpeg/ffprobe, lame, node.
set -euo pipefail

usage() {
  cat <<'EOF'
make-demo-audio: speaks every episode's script.json with espeak-ng into the MP3 its episode.json
names (audio.file), and writes durationSeconds, audio.bytes and audio.sha256 back. An MP3 newer than
its script.json is kept unless FORCE=1. Needs espeak-ng, ffmpeg/ffprobe, lame and node.

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

CONTENT="${1:-${CONTENT_DIR:-$(cd "$(dirname "$0")/.." && pwd)/content}}"
VOICE_A="${VOICE_A:-en-us+f3}"
VOICE_B="${VOICE_B:-en-gb+m3}"
SPEED="${SPEED:-170}"              # words per minute
PAUSE="${PAUSE:-0.35}"             # seconds of silence between segments
BITRATE="${BITRATE:-32}"           # kbps, CBR
RESAMPLE="${RESAMPLE:-22.05}"      # kHz
FORCE="${FORCE:-0}"

for tool in espeak-ng ffmpeg ffprobe lame node; do
  command -v "$tool" >/dev/null 2>&1 || { echo "make-demo-audio: missing tool: $tool" >&2; exit 1; }
done
[ -d "$CONTENT/episodes" ] || { echo "make-demo-audio: no episodes folder in $CONTENT" >&2; exit 1; }

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Prints "<speaker>\t<text>" per segment, stage directions removed, white space collapsed.
segments() {
  node -e '
    const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const seg of s.segments || []) {
      const text = String(seg.text || "").replace(/\[[^\]]*\]|\*[^*]*\*/g, " ").replace(/\s+/g, " ").trim();
      if (text) console.log(`${seg.speaker}\t${text}`);
    }' "$1"
}

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
    list="$work/list.txt"
    : > "$list"
    i=0
    while IFS=$'\t' read -r speaker text; do
      case "$speaker" in
        a) voice="$VOICE_A" ;;
        b) voice="$VOICE_B" ;;
        *) voice="$VOICE_A" ;;
      esac
      i=$((i + 1))
      seg="$work/seg-$(printf '%03d' "$i").wav"
      # Text goes through stdin so that a segment starting with "-" is never read as an option.
      printf '%s\n' "$text" | espeak-ng -v "$voice" -s "$SPEED" -w "$seg"
      [ "$i" -gt 1 ] && echo "file 'pause.wav'" >> "$list"
      echo "file '$(basename "$seg")'" >> "$list"
    done < <(segments "$script")
    [ "$i" -gt 0 ] || { echo "make-demo-audio: $script has no speakable segments, skipped" >&2; continue; }

    # Silence with the same format as espeak-ng output (mono, 16-bit; rate read from the first segment).
    rate="$(ffprobe -v error -select_streams a:0 -show_entries stream=sample_rate -of csv=p=0 "$work/seg-001.wav")"
    ffmpeg -v error -y -f lavfi -i "anullsrc=r=$rate:cl=mono" -t "$PAUSE" -c:a pcm_s16le "$work/pause.wav"
    ffmpeg -v error -y -f concat -safe 0 -i "$list" -c:a pcm_s16le -ac 1 "$work/all.wav"
    lame --quiet --noreplaygain -m m --resample "$RESAMPLE" -b "$BITRATE" --cbr "$work/all.wav" "$work/out.mp3"
    mv "$work/out.mp3" "$mp3"
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
