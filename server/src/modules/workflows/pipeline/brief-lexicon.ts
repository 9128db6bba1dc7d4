// Words that describe how an ad sounds (its voice), for reading a brief's tone sentences: an adjective here
// says nothing about the product ("Casual, honest, a bit funny."), so a fragment made of them is never copy.
export const TONE_WORDS = new Set(
  `casual honest funny warm friendly playful bold confident calm upbeat energetic serious sincere witty cheeky irreverent
authentic relaxed professional elegant minimal minimalist edgy fun quirky heartfelt emotional inspiring inspirational
optimistic cheerful gentle  loud punchy direct trustworthy reassuring sophisticated understated raw gritty moody dreamy
nostalgic urgent excited enthusiastic humble conversational informal formal clinical technical expert youthful  
 rustic cozy cosy  lighthearted light-hearted dry sarcastic bubbly chill laid-back laidback empathetic caring
approachable down-to-earth genuine transparent  polished refined exclusive aspirational  adventurous 
tongue-in-cheek self-deprecating deadpan whimsical serene tranquil soothing intimate romantic festive joyful positive
motivational hype hyped dramatic epic mysterious slick  clever charming      earnest
straightforward no-nonsense matter-of-fact silly goofy cute  kind sassy spirited lively vibrant passionate 
 human personal personable respectful thoughtful assured authoritative knowledgeable helpful supportive encouraging
uplifting hopeful happy tender cinematic documentary theatrical poetic lyrical minimalistic restrained subtle confident
hip trendy young grown-up mature welcoming inviting homely homey family-friendly kid-friendly `
    .split(/\s+/)
    .filter(Boolean),
);

/** The music mood each tone word asks for (render/types.ts MusicMood). */
export const MOOD_OF_TONE: Record<"energetic" | "calm" | "luxurious" | "playful" | "warm", string[]> = {
  energetic:
    `upbeat energetic bold punchy hype hyped excited enthusiastic lively vibrant urgent motivational epic dramatic edgy passionate spirited`.split(
      " ",
    ),
  calm: `calm serene tranquil soothing minimal minimalist understated restrained subtle gentle clinical professional thoughtful`.split(" "),
  luxurious: `elegant sophisticated refined polished exclusive aspirational slick`.split(" "),
  playful:
    `funny playful cheeky witty quirky silly goofy whimsical irreverent sassy fun tongue-in-cheek bubbly cute clever lighthearted light-hearted`.split(
      " ",
    ),
  warm: `warm friendly honest casual heartfelt sincere authentic genuine caring empathetic reassuring cozy cosy nostalgic human personal approachable down-to-earth tender hopeful conversational relaxed laid-back`.split(
    " ",
  ),
};
