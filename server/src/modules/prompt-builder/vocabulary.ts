// What the prompt builder knows: the three builders, camera specs, named cinematography styles and the
// lexicon of each provider family. Plain data, published as is by `GET /api/prompt-builder` and read by
// `buildPrompt` to recognise, expand and score what a prompt says.
import {
  type CameraSpecs,
  type CinematographyStyle,
  type CinematographyStyleId,
  type LexiconFamily,
  PROMPT_NEGATIVE_MAX_ITEMS,
  PROMPT_TEXT_MAX,
  type PromptBuilderId,
  type PromptBuilderSpec,
  type PromptCriterion,
  type PromptFamily,
  type PromptFieldSpec,
} from "@adgen/schema";

/** Bumped when the vocabulary or the scoring changes, so stored prompts can say which rules made them. */
export const PROMPT_BUILDER_VERSION = "1.0.0";

export const CAMERA: CameraSpecs = {
  lenses: [
    { id: "14mm", focalLengthMm: 14, label: "14mm ultra-wide", use: "vast spaces, dramatic perspective" },
    { id: "24mm", focalLengthMm: 24, label: "24mm wide", use: "establishing shots, environments" },
    { id: "35mm", focalLengthMm: 35, label: "35mm", use: "the cinematic standard: subject with surroundings" },
    { id: "50mm", focalLengthMm: 50, label: "50mm normal", use: "natural perspective, close to the eye" },
    { id: "85mm", focalLengthMm: 85, label: "85mm portrait", use: "portraits, flattering compression, soft background" },
    { id: "100mm", focalLengthMm: 100, label: "100mm macro", use: "product details, textures" },
    { id: "135mm", focalLengthMm: 135, label: "135mm telephoto", use: "isolated subject, strong background blur" },
  ],
  shotSizes: [
    { id: "extreme close-up", label: "Extreme close-up", description: "a detail fills the frame" },
    { id: "close-up", label: "Close-up", description: "the face or the product fills the frame" },
    { id: "medium close-up", label: "Medium close-up", description: "head and shoulders" },
    { id: "medium shot", label: "Medium shot", description: "from the waist up" },
    { id: "full shot", label: "Full shot", description: "the whole subject, head to toe" },
    { id: "wide shot", label: "Wide shot", description: "the subject within its setting" },
    { id: "extreme wide shot", label: "Extreme wide shot", description: "the setting dominates" },
  ],
  angles: [
    { id: "eye level", label: "Eye level", description: "neutral, relatable" },
    { id: "low angle", label: "Low angle", description: "looking up: power, presence" },
    { id: "high angle", label: "High angle", description: "looking down: vulnerability, overview" },
    { id: "overhead", label: "Overhead (top-down)", description: "flat lays, patterns" },
    { id: "dutch angle", label: "Dutch angle", description: "tilted horizon: tension, energy" },
    { id: "over-the-shoulder", label: "Over-the-shoulder", description: "point of view of a second person" },
    { id: "pov", label: "POV", description: "through the eyes of the viewer" },
  ],
  movements: [
    { id: "static", label: "Static (locked-off)", description: "no movement, lets the subject act" },
    { id: "slow dolly in", label: "Slow dolly in", description: "moves toward the subject: focus, intimacy" },
    { id: "dolly out", label: "Dolly out", description: "moves away: reveal, ending" },
    { id: "tracking shot", label: "Tracking shot", description: "follows the subject" },
    { id: "pan", label: "Pan", description: "turns left or right from one spot" },
    { id: "tilt", label: "Tilt", description: "turns up or down from one spot" },
    { id: "crane shot", label: "Crane shot", description: "rises or descends over the scene" },
    { id: "orbit", label: "Orbit (arc)", description: "circles the subject: hero product reveal" },
    { id: "handheld", label: "Handheld", description: "slight shake: authentic, documentary" },
    { id: "gimbal", label: "Gimbal", description: "smooth, floating follow" },
  ],
};

/** Other spellings recognised in free text, mapped to a spec id. */
export const CAMERA_ALIASES: Record<string, string> = {
  ecu: "extreme close-up",
  "extreme closeup": "extreme close-up",
  closeup: "close-up",
  "close up": "close-up",
  cu: "close-up",
  mcu: "medium close-up",
  "medium closeup": "medium close-up",
  "mid shot": "medium shot",
  "medium-shot": "medium shot",
  "full body": "full shot",
  "long shot": "wide shot",
  "wide angle shot": "wide shot",
  "establishing shot": "extreme wide shot",
  "eye-level": "eye level",
  "low-angle": "low angle",
  "high-angle": "high angle",
  "top-down": "overhead",
  "top down": "overhead",
  "bird's eye": "overhead",
  "birds eye": "overhead",
  "flat lay": "overhead",
  "dutch tilt": "dutch angle",
  "point of view": "pov",
  "first person": "pov",
  "locked-off": "static",
  "locked off": "static",
  tripod: "static",
  "dolly in": "slow dolly in",
  "push in": "slow dolly in",
  "push-in": "slow dolly in",
  "pull back": "dolly out",
  "pull out": "dolly out",
  tracking: "tracking shot",
  "follow shot": "tracking shot",
  crane: "crane shot",
  "jib shot": "crane shot",
  arc: "orbit",
  "arc shot": "orbit",
  "orbit shot": "orbit",
  "hand-held": "handheld",
  steadicam: "gimbal",
  "whip pan": "pan",
};

const ALL_BUILDERS: PromptBuilderId[] = ["image", "video-cinematic", "video-ugc"];
const VIDEO_BUILDERS: PromptBuilderId[] = ["video-cinematic", "video-ugc"];

export const STYLES: Record<CinematographyStyleId, CinematographyStyle> = {
  cinematic: {
    id: "cinematic",
    name: "Cinematic",
    lighting: "motivated key light with soft contrast",
    palette: "rich, filmic colour grade",
    camera: "35mm lens, shallow depth of field",
    mood: "epic, polished",
    keywords: ["cinematic", "film still", "anamorphic", "movie"],
    builders: ALL_BUILDERS,
  },
  "film-noir": {
    id: "film-noir",
    name: "Film Noir",
    lighting: "low-key lighting, hard shadows, venetian blind light",
    palette: "high-contrast black and white",
    camera: "50mm lens, low angle",
    mood: "mysterious, tense",
    keywords: ["noir", "black and white", "chiaroscuro"],
    builders: ["image", "video-cinematic"],
  },
  "teal-orange": {
    id: "teal-orange",
    name: "Teal and Orange Blockbuster",
    lighting: "warm key light against cool shadows",
    palette: "teal shadows, orange skin tones",
    camera: "anamorphic 35mm, wide shot",
    mood: "bold, energetic",
    keywords: ["teal and orange", "blockbuster", "hollywood"],
    builders: ["image", "video-cinematic"],
  },
  "golden-hour": {
    id: "golden-hour",
    name: "Golden Hour",
    lighting: "low warm sunlight, long soft shadows, lens flare",
    palette: "amber, honey and soft pink",
    camera: "85mm lens, backlit subject",
    mood: "warm, nostalgic, hopeful",
    keywords: ["golden hour", "sunset", "sunrise", "magic hour"],
    builders: ALL_BUILDERS,
  },
  documentary: {
    id: "documentary",
    name: "Documentary",
    lighting: "available natural light",
    palette: "true-to-life, lightly graded colour",
    camera: "handheld, 35mm lens, eye level",
    mood: "honest, observational",
    keywords: ["documentary", "vérité", "verite", "candid", "real life"],
    builders: VIDEO_BUILDERS,
  },
  "ugc-selfie": {
    id: "ugc-selfie",
    name: "UGC Selfie",
    lighting: "soft window light or a ring light",
    palette: "natural smartphone colour",
    camera: "smartphone front camera, handheld, eye level, vertical framing",
    mood: "authentic, friendly, spontaneous",
    keywords: ["ugc", "selfie", "smartphone", "phone footage", "tiktok", "creator"],
    builders: ["video-ugc", "image"],
  },
  "studio-product": {
    id: "studio-product",
    name: "Studio Product",
    lighting: "softbox key light, rim light, seamless backdrop",
    palette: "clean neutrals with the brand's accent colour",
    camera: "100mm macro lens, eye level, static",
    mood: "premium, precise",
    keywords: ["studio", "product shot", "packshot", "e-commerce", "catalogue"],
    builders: ALL_BUILDERS,
  },
  minimalist: {
    id: "minimalist",
    name: "Minimalist",
    lighting: "even, diffused high-key light",
    palette: "white, beige and one accent colour",
    camera: "50mm lens, centred composition, negative space",
    mood: "calm, elegant",
    keywords: ["minimal", "minimalist", "clean", "scandinavian"],
    builders: ALL_BUILDERS,
  },
  "neon-cyberpunk": {
    id: "neon-cyberpunk",
    name: "Neon Cyberpunk",
    lighting: "neon signs, coloured rim light, wet reflections",
    palette: "magenta, cyan and deep blue",
    camera: "24mm wide lens, low angle",
    mood: "futuristic, electric",
    keywords: ["neon", "cyberpunk", "synthwave", "blade runner"],
    builders: ["image", "video-cinematic"],
  },
  "vintage-film": {
    id: "vintage-film",
    name: "Vintage Film",
    lighting: "soft, slightly overexposed daylight",
    palette: "faded warm tones, film grain",
    camera: "50mm lens, 35mm film stock",
    mood: "nostalgic, intimate",
    keywords: ["vintage", "retro", "analog", "kodak", "film grain", "70s", "80s", "90s"],
    builders: ALL_BUILDERS,
  },
};

/** Words each family responds to; `negative` holds the defects its outputs commonly show. */
export const LEXICON: Record<PromptFamily, LexiconFamily> = {
  diffusion: {
    quality: [
      "highly detailed",
      "sharp focus",
      "8k",
      "4k",
      "photorealistic",
      "professional photography",
      "high resolution",
      "intricate details",
      "masterpiece",
      "ultra realistic",
    ],
    lighting: [
      "soft light",
      "studio lighting",
      "softbox",
      "rim light",
      "backlit",
      "golden hour",
      "volumetric lighting",
      "high-key",
      "low-key",
      "natural light",
      "window light",
      "neon",
      "chiaroscuro",
      "overcast",
      "hard light",
      "diffused light",
      "ring light",
    ],
    mood: ["serene", "dramatic", "moody", "vibrant", "cozy", "luxurious", "playful", "mysterious", "energetic", "nostalgic"],
    negative: [
      "blurry",
      "low quality",
      "lowres",
      "jpeg artifacts",
      "watermark",
      "text",
      "logo",
      "deformed",
      "extra fingers",
      "bad anatomy",
      "oversaturated",
      "noise",
      "cropped",
      "duplicate",
    ],
  },
  video: {
    quality: [
      "cinematic",
      "smooth motion",
      "high frame rate",
      "4k",
      "film grain",
      "shallow depth of field",
      "stable footage",
      "professional color grading",
      "highly detailed",
      "sharp focus",
    ],
    lighting: [
      "golden hour",
      "motivated lighting",
      "practical lights",
      "rim light",
      "backlit",
      "volumetric lighting",
      "low-key",
      "high-key",
      "natural light",
      "neon",
      "soft light",
      "window light",
      "hard light",
      "overcast",
    ],
    mood: ["epic", "intimate", "suspenseful", "uplifting", "energetic", "calm", "dreamy", "gritty", "nostalgic", "playful"],
    negative: [
      "flicker",
      "jitter",
      "morphing",
      "warping",
      "frame stutter",
      "blurry",
      "low quality",
      "watermark",
      "text overlay",
      "distorted faces",
      "extra limbs",
      "sudden cuts",
    ],
  },
  natural: {
    quality: ["high quality", "detailed", "realistic", "professional", "crisp", "well composed", "sharp focus", "highly detailed"],
    lighting: [
      "soft daylight",
      "warm evening light",
      "natural light",
      "window light",
      "studio lighting",
      "candlelight",
      "golden hour",
      "soft light",
      "backlit",
      "overcast",
    ],
    mood: ["friendly", "calm", "exciting", "warm", "confident", "relaxed", "joyful", "trustworthy"],
    negative: ["blurry", "distorted", "watermark", "text", "cluttered background", "unnatural colours", "low quality"],
  },
};

export const CRITERIA: { id: PromptCriterion; label: string; max: number; description: string }[] = [
  {
    id: "subjectClarity",
    label: "Subject clarity",
    max: 20,
    description: "a concrete subject with a few details (material, colour, action)",
  },
  { id: "specificity", label: "Specificity", max: 15, description: "a setting and quality terms the family understands" },
  { id: "lighting", label: "Lighting", max: 15, description: "named lighting terms, consistent with the style" },
  { id: "camera", label: "Camera", max: 20, description: "lens, shot size, angle (image) or movement (video)" },
  {
    id: "styleCoherence",
    label: "Style coherence",
    max: 15,
    description: "a named style that suits the builder and agrees with the lighting",
  },
  { id: "negatives", label: "Negatives", max: 15, description: "defects to avoid" },
];

const STYLE_IDS = Object.keys(STYLES);
const LENS_IDS = CAMERA.lenses.map((l) => l.id);

function field(
  name: PromptFieldSpec["name"],
  label: string,
  description: string,
  placeholder: string,
  extra: Partial<PromptFieldSpec> = {},
): PromptFieldSpec {
  return {
    name,
    label,
    type: "string",
    required: false,
    maxLength: PROMPT_TEXT_MAX,
    maxItems: null,
    allowedValues: [],
    freeText: true,
    placeholder,
    description,
    ...extra,
  };
}

function fieldsFor(builder: PromptBuilderId): PromptFieldSpec[] {
  const video = builder !== "image";
  const cameraValues = [
    ...LENS_IDS,
    ...CAMERA.shotSizes.map((s) => s.id),
    ...CAMERA.angles.map((a) => a.id),
    ...(video ? CAMERA.movements.map((m) => m.id) : []),
  ];
  const family = FAMILY_OF[builder];
  const example = {
    image: "a matte black ceramic coffee mug with steam rising",
    "video-cinematic": "a runner crossing a bridge at dawn",
    "video-ugc": "a young woman unboxing wireless earbuds and smiling",
  }[builder];
  return [
    field("subject", "Subject", "what the picture shows: the product or person, with a few concrete details", example, { required: true }),
    field(
      "context",
      "Context",
      "the setting or the action around the subject",
      video ? "in a quiet city at sunrise" : "on a wooden desk by a window",
    ),
    field("style", "Style", "a named cinematography style (id or name), or your own words", "cinematic", { allowedValues: STYLE_IDS }),
    field("quality", "Quality", "quality terms, comma-separated", LEXICON[family].quality.slice(0, 2).join(", "), {
      allowedValues: LEXICON[family].quality,
    }),
    field("lighting", "Lighting", "lighting terms, comma-separated", "golden hour, rim light", { allowedValues: LEXICON[family].lighting }),
    field(
      "camera",
      "Camera",
      video ? "lens, shot size, angle and movement" : "lens, shot size and angle",
      video ? "35mm, medium shot, slow dolly in" : "85mm, close-up, eye level",
      {
        allowedValues: cameraValues,
      },
    ),
    field("negative", "Negative", "things to keep out of the result", LEXICON[family].negative.slice(0, 3).join(", "), {
      type: "string[]",
      maxItems: PROMPT_NEGATIVE_MAX_ITEMS,
      allowedValues: LEXICON[family].negative,
    }),
  ];
}

/** The family each builder writes `positive` for. */
export const FAMILY_OF: Record<PromptBuilderId, PromptFamily> = { image: "diffusion", "video-cinematic": "video", "video-ugc": "video" };

export const BUILDERS: Record<PromptBuilderId, PromptBuilderSpec> = {
  image: {
    id: "image",
    name: "Image",
    description: "Still images: product shots, key visuals, static ads",
    medium: "image",
    family: FAMILY_OF.image,
    fields: fieldsFor("image"),
    defaultQuality: ["highly detailed", "sharp focus"],
    defaultNegative: ["blurry", "low quality", "watermark"],
    recommendedStyles: ["studio-product", "minimalist", "cinematic", "golden-hour"],
  },
  "video-cinematic": {
    id: "video-cinematic",
    name: "Cinematic video",
    description: "Directed shots with a lens, a movement and a grade",
    medium: "video",
    family: FAMILY_OF["video-cinematic"],
    fields: fieldsFor("video-cinematic"),
    defaultQuality: ["cinematic", "smooth motion"],
    defaultNegative: ["flicker", "morphing", "watermark"],
    recommendedStyles: ["cinematic", "teal-orange", "golden-hour", "film-noir"],
  },
  "video-ugc": {
    id: "video-ugc",
    name: "UGC video",
    description: "Creator-style smartphone footage that feels authentic",
    medium: "video",
    family: FAMILY_OF["video-ugc"],
    fields: fieldsFor("video-ugc"),
    defaultQuality: ["natural smartphone footage", "stable footage"],
    defaultNegative: ["flicker", "distorted faces", "watermark"],
    recommendedStyles: ["ugc-selfie", "documentary", "golden-hour"],
  },
};

/** Lighting words that contradict each other; a prompt holding both (style included) loses coherence. */
export const LIGHTING_CONFLICTS: [RegExp, RegExp][] = [
  [/\bhigh[- ]key\b/, /\blow[- ]key\b|\bnoir\b|\bchiaroscuro\b/],
  [/\bgolden hour\b|\bsunset\b|\bsunrise\b|\bdaylight\b/, /\bnight\b|\bneon\b|\bmoonlight\b|\bcandlelight\b/],
  [/\bbright\b|\bairy\b/, /\bdark\b|\bmoody\b|\bhard shadows\b/],
  [/\bblack and white\b|\bmonochrome\b/, /\bvibrant\b|\bcolou?rful\b|\bneon\b|\bteal\b/],
];
