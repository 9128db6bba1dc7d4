// Loudness of the ad's sound: every ad plays at −14 LUFS integrated (what the social platforms normalise to),
// its true peak at or below −1 dBTP. The mix is measured once (ffmpeg's ebur128, while it is being written)
// and then given one gain and a peak limiter as it is encoded: no pumping, and about a tenth of the time of
// loudnorm's two passes (which resample to 192 kHz: 1.5–3 s for a 15 s track, against the render's budget).
import { execFile } from "node:child_process";
import { filter } from "./graph.ts";
import { RenderAbortedError } from "./ffmpeg.ts";

/** Integrated loudness (LUFS) every ad is brought to. */
export const TARGET_LUFS = -14;
/**
 * The limiter's sample-peak ceiling, 0.75 ≈ −2.5 dBFS: a dB and a half of room under the −1 dBTP promise for
 * the peaks between samples and the AAC encoder's overshoot.
 */
const PEAK_LIMIT = 0.75;
/** Below this a track is silence (ebur128 reports −70 LUFS): it gets no gain. */
const SILENCE_LUFS = -60;
/** The most gain a quiet mix is given (+24 dB), so a near-silent track is not blown up into noise. */
const MAX_GAIN_DB = 24;

/**
 * Runs ffmpeg with `args` (which must pass the sound through an `ebur128` filter) and returns the integrated
 * loudness it reports, in LUFS. ffmpeg's own output files are written as usual.
 */
export function runMeasured(ffmpeg: string, args: string[], cwd: string, signal?: AbortSignal): Promise<number> {
  const all = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "info", ...args];
  return new Promise((resolve, reject) => {
    execFile(ffmpeg, all, { cwd, signal, maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (signal?.aborted) return reject(new RenderAbortedError(signal.reason));
      if (error) return reject(new Error(`ffmpeg could not mix and measure the sound track: ${stderr.slice(-800)}`));
      // The summary comes last: "Integrated loudness:\n    I:         -23.4 LUFS".
      const summary = stderr.slice(stderr.lastIndexOf("Integrated loudness:"));
      const value = /I:\s*(-?[\d.]+|-inf)\s*LUFS/.exec(summary)?.[1];
      if (!value) return reject(new Error("ffmpeg printed no loudness summary for the sound track"));
      resolve(value === "-inf" ? -Infinity : Number(value));
    });
  });
}

/** The measuring step to put at the end of a chain (it passes the sound through unchanged). */
export const measureStep = () => filter("ebur128", { peak: "none" });

/** The gain (dB) bringing a sound measured at `lufs` to the target; none for silence, at most +24 dB. */
export function gainFor(lufs: number): number {
  return Number.isFinite(lufs) && lufs > SILENCE_LUFS ? Math.min(MAX_GAIN_DB, TARGET_LUFS - lufs) : 0;
}

/** The steps giving a sound `gainDb`, then the peak limiter. */
export function normalizeSteps(gainDb: number): string[] {
  return [
    filter("volume", { volume: `${gainDb.toFixed(2)}dB` }),
    // level=0: no automatic make-up gain, which would undo the measured gain.
    filter("alimiter", { limit: PEAK_LIMIT, attack: 1, release: 60, level: 0 }),
  ];
}
