// The ad's sound, made once and shared by every format: the music bed, with the voice-over mixed over it
// (the bed ducking under speech) when there is one, encoded to AAC. Sound does not depend on the frame
// size, so the four formats of a job used to synthesize, mix and encode the same track four times; now the
// first render of a job encodes it into a content-addressed cache and the others copy its packets. The mix is
// normalised to −14 LUFS / −1 dBTP (loudness.ts) so narrated and music-only ads play equally loud.
import { createHash } from "node:crypto";
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { filter } from "./graph.ts";
import { bedWav } from "./music-bed.ts";
import { gainFor, measureStep, normalizeSteps, runMeasured, TARGET_LUFS } from "./loudness.ts";
import type { MusicMood, RenderNarration } from "./types.ts";

export interface AudioRecipe {
  durationSec: number;
  mood?: MusicMood;
  /** Picks the mood's bed (music-bed.ts): the same seed, the same music; e.g. a hash of the storyboard. */
  seed?: string;
  /** Seconds per beat (beat-grid.ts bedBeat), when the ad's cuts set the bed's tempo. */
  beatSec?: number;
  narration?: RenderNarration;
  /** AAC bitrate, e.g. "128k". */
  bitrate: string;
}

/** Tracks kept in the cache; the oldest beyond this are removed. A job's formats render within minutes. */
const KEEP = 48;

export const defaultAudioCacheDir = () => join(tmpdir(), "adgen-audio-tracks");

async function cacheKey(recipe: AudioRecipe): Promise<string> {
  const hash = createHash("sha256");
  hash.update(
    JSON.stringify({
      v: 3,
      d: recipe.durationSec.toFixed(3),
      mood: recipe.mood ?? "calm",
      seed: recipe.seed ?? "",
      beat: recipe.beatSec?.toFixed(6) ?? "",
      bitrate: recipe.bitrate,
    }),
  );
  if (recipe.narration) hash.update(await readFile(recipe.narration.wavPath));
  return hash.digest("hex").slice(0, 32);
}

/** The filter graph mixing the voice (input 1) over the bed (input 0), as `[aout]`. */
function voiceMix(durationSec: number): string {
  const d = durationSec.toFixed(3);
  return [
    // Under a voice-over the bed sits lower (−7 dB) throughout: after the mix is brought to −14 LUFS the voice
    // carries the loudness and the music stays behind it.
    `[0:a]${filter("aformat", { sample_fmts: "fltp", sample_rates: 44100, channel_layouts: "stereo" })},${filter("volume", { volume: 0.45 })}[bed]`,
    `[1:a]${[
      filter("aresample", { osr: 44100 }),
      filter("aformat", { sample_fmts: "fltp", sample_rates: 44100, channel_layouts: "stereo" }),
      filter("apad"),
      filter("atrim", { end: d }),
      filter("volume", { volume: 2.2 }),
      // A voice-over is levelled as in a studio: its peaks come down so it can sit at the target loudness
      // without the final limiter squashing it.
      filter("acompressor", { threshold: 0.1, ratio: 4, attack: 5, release: 120, makeup: 2 }),
      filter("asplit", { outputs: 2 }),
    ].join(",")}[voice][key]`,
    // The bed ducks under the voice (about −12 dB while it speaks), then both are mixed (amix halves each).
    `[bed][key]${filter("sidechaincompress", { threshold: 0.02, ratio: 6, attack: 15, release: 350, makeup: 1 })}[ducked]`,
    `[voice][ducked]${filter("amix", { inputs: 2, duration: "first", dropout_transition: 0 })}[aout]`,
  ].join(";");
}

async function prune(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const tracks = await Promise.all(
    entries
      .filter((name) => name.endsWith(".m4a"))
      .map(async (name) => ({ name, mtime: (await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  tracks.sort((a, b) => b.mtime - a.mtime);
  for (const old of tracks.slice(KEEP)) await unlink(join(dir, old.name)).catch(() => {});
}

/**
 * The encoded track for `recipe`, as a path in `cacheDir` (made on the first call for this sound). The
 * caller should take its own link to the file (see {@link linkTrack}): the cache may drop it later.
 */
export async function audioTrack(ffmpeg: string, recipe: AudioRecipe, cacheDir: string, signal?: AbortSignal): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const path = join(cacheDir, `${await cacheKey(recipe)}.m4a`);
  const now = new Date();
  const cached = await utimes(path, now, now).then(
    () => true,
    () => false,
  );
  if (cached) return path;
  const work = await mkdtemp(join(cacheDir, ".track-"));
  try {
    await writeFile(join(work, "bed.wav"), bedWav(recipe.durationSec, recipe.mood, recipe.seed, recipe.beatSec));
    // The mix is written as float PCM (nothing clips before the gain) and measured as it is written; then it
    // gets its gain and the limiter as it is encoded.
    const mixArgs = ["-i", "bed.wav"];
    if (recipe.narration) {
      mixArgs.push("-i", recipe.narration.wavPath, "-filter_complex", `${voiceMix(recipe.durationSec)};[aout]${measureStep()}[mix]`);
    } else mixArgs.push("-filter_complex", `[0:a]${measureStep()}[mix]`);
    mixArgs.push("-map", "[mix]", "-c:a", "pcm_f32le", "-t", recipe.durationSec.toFixed(3), "-f", "wav", "-y", "mix.wav");
    const lufs = await runMeasured(ffmpeg, mixArgs, work, signal);
    // Encoded with the gain and measured again after the limiter: when the limiter took more than half a LU
    // off (a voice with sharp peaks), the shortfall is added to the gain and the track encoded once more.
    const encode = (gainDb: number) =>
      runMeasured(
        ffmpeg,
        ["-i", "mix.wav", "-af", [...normalizeSteps(gainDb), measureStep()].join(","), "-map", "0:a"].concat(
          ["-c:a", "aac", "-b:a", recipe.bitrate, "-ar", "44100", "-ac", "2", "-t", recipe.durationSec.toFixed(3)],
          ["-map_metadata", "-1", "-f", "mp4", "-y", "track.m4a"],
        ),
        work,
        signal,
      );
    const gain = gainFor(lufs);
    const reached = await encode(gain);
    if (Math.abs(reached - TARGET_LUFS) > 0.5 && Number.isFinite(reached)) await encode(gain + TARGET_LUFS - reached);
    // Another render of the same sound may have finished first: the rename replaces an identical file.
    await rename(join(work, "track.m4a"), path);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  await prune(cacheDir);
  return path;
}

/** Puts the track at `target` as a hard link (it outlives the cache's pruning), or a copy across file systems. */
export async function linkTrack(track: string, target: string): Promise<void> {
  await link(track, target).catch(() => copyFile(track, target));
}
