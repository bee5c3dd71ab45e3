/**
 * How free-form tags ("inspirational, life, love, christianity") map onto the taxonomy. This is
 * content, not logic: extend it when an import reports unknown tags (see CORPUS.md). Names are
 * checked against the contract when the module loads, so a typo fails at once.
 *
 * Tags are matched after normalising: lower case, '-' and '_' as spaces, runs of spaces
 * collapsed, and a trailing "quote"/"quotes" dropped ("love-quotes" is "love").
 */
export const tagMappingDefaults = {
  /** Category of a tagged row none of whose tags names a category. */
  fallbackCategory: 'Life & Human Nature',
  /** Mood of a row that gives none and whose tags name none. */
  defaultMood: 'reflective',
  /** Curation score of a row with neither `score` nor `likes`: the middle of the 0-100 scale. */
  defaultScore: 50,
  /** At most this many moods are taken from tags (curated rows may give up to 8). */
  maxMoodsFromTags: 3,
} as const;

/**
 * Tags naming a category. `specific` tags outrank `broad` ones when choosing the primary
 * category (the first specific tag wins; the next distinct category becomes the secondary).
 * `moods` are implied only when the row names no mood of its own.
 */
export const categoryTags: Record<string, { specific: string[]; broad?: string[]; moods?: string[] }> = {
  'Aging & Growing Old': { specific: ['aging', 'ageing', 'old age', 'growing old', 'getting older', 'elderly', 'retirement', 'birthday', 'birthdays', 'wrinkles', 'seniors', 'grey hair', 'vejez'], broad: ['age', 'youth'] },
  'Art & Literature': { specific: ['art', 'arts', 'literature', 'books', 'book', 'reading', 'writing', 'writers', 'writer', 'poetry', 'poems', 'poets', 'novels', 'storytelling', 'stories', 'painting', 'music', 'library', 'libraries', 'fiction', 'authors', 'artists', 'theatre', 'theater', 'film', 'literatura'], broad: ['words', 'language'] },
  'Athletes & Sports Legends': { specific: ['sports', 'sport', 'athletes', 'athletics', 'football', 'soccer', 'basketball', 'baseball', 'running', 'marathon', 'olympics', 'boxing', 'golf', 'tennis', 'coaching', 'coach', 'champions', 'cricket', 'hockey', 'cycling', 'swimming'], broad: ['competition', 'training', 'winning'], moods: ['inspirational'] },
  'Beauty & Aesthetics': { specific: ['beauty', 'beautiful', 'aesthetics', 'elegance', 'fashion', 'design', 'style'] },
  'Community & Service': { specific: ['community', 'service', 'volunteering', 'charity', 'helping others', 'generosity', 'giving', 'philanthropy', 'neighbors', 'neighbours', 'altruism'], broad: ['kindness', 'compassion', 'humanity'], moods: ['uplifting'] },
  'Conscience & Integrity': { specific: ['integrity', 'honesty', 'conscience', 'ethics', 'morality', 'morals', 'character', 'principles', 'lies', 'lying', 'responsibility', 'hypocrisy'], broad: ['virtue', 'truth'], moods: ['serious'] },
  'Courage & Strength': { specific: ['courage', 'bravery', 'brave', 'strength', 'fear', 'fearless', 'inner strength', 'valor', 'valour', 'coraje'], moods: ['inspirational'] },
  'Creativity & Innovation': { specific: ['creativity', 'creative', 'innovation', 'imagination', 'ideas', 'invention', 'inventors', 'originality', 'creative process'] },
  'Culture & Heritage': { specific: ['culture', 'heritage', 'tradition', 'traditions', 'history', 'ancestors', 'identity', 'roots', 'customs', 'civilization', 'civilisation', 'folklore', 'mythology'] },
  'Curiosity & Wonder': { specific: ['curiosity', 'wonder', 'awe', 'discovery', 'mystery', 'astonishment', 'stars', 'universe', 'cosmos'], broad: ['questions'] },
  'Dignity & Honor': { specific: ['dignity', 'honor', 'honour', 'respect', 'self respect', 'pride', 'nobility', 'reputation', 'shame'], moods: ['serious'] },
  'Doubt & Uncertainty': { specific: ['doubt', 'uncertainty', 'skepticism', 'scepticism', 'indecision', 'confusion', 'ambiguity', 'agnosticism', 'not knowing'], moods: ['reflective'] },
  'Education & Learning': { specific: ['education', 'learning', 'knowledge', 'teaching', 'teachers', 'teacher', 'school', 'students', 'study', 'college', 'university', 'lessons', 'mistakes'], broad: ['life lessons'] },
  'Family & Parenting': { specific: ['family', 'families', 'siblings', 'brothers', 'sisters', 'relatives', 'grandparents', 'father', 'mother', 'fathers', 'mothers', 'parents', 'familia', 'famille'], broad: ['home'] },
  'Forgiveness & Letting Go': { specific: ['forgiveness', 'forgive', 'forgiving', 'letting go', 'let go', 'resentment', 'grudges', 'apology', 'mercy', 'moving on', 'acceptance'], moods: ['reflective'] },
  'Freedom & Liberty': { specific: ['freedom', 'liberty', 'independence', 'free will', 'slavery', 'free speech', 'libertad', 'liberté'] },
  'Friendship & Loyalty': { specific: ['friendship', 'friends', 'friend', 'loyalty', 'companionship', 'betrayal', 'best friends', 'amistad', 'amitié'], broad: ['trust'] },
  'Grief & Loss': { specific: ['grief', 'loss', 'mourning', 'sorrow', 'bereavement', 'grieving', 'funeral', 'missing someone', 'widow', 'losing someone'], moods: ['poignant'] },
  'Happiness & Peace': { specific: ['happiness', 'happy', 'joy', 'peace', 'contentment', 'inner peace', 'serenity', 'gratitude', 'bliss', 'smile', 'smiling', 'felicidad', 'bonheur'], moods: ['uplifting'] },
  'Hardship & Adversity': { specific: ['adversity', 'hardship', 'struggle', 'struggles', 'suffering', 'pain', 'obstacles', 'difficulties', 'overcoming', 'resilience', 'hard times'], moods: ['challenging'] },
  'Hope & Optimism': { specific: ['hope', 'optimism', 'hopeful', 'positivity', 'positive thinking', 'new beginnings', 'esperanza', 'espoir'], moods: ['uplifting'] },
  'Humor & Wit': { specific: ['humor', 'humour', 'funny', 'wit', 'witty', 'jokes', 'comedy', 'satire', 'sarcasm', 'irony', 'laughter', 'puns'], moods: ['humorous'] },
  'Justice & Equality': { specific: ['justice', 'equality', 'injustice', 'law', 'rights', 'human rights', 'civil rights', 'racism', 'discrimination', 'fairness', 'feminism', 'womens rights', 'oppression', 'prejudice'], moods: ['serious'] },
  'Leadership & Business': { specific: ['leadership', 'leaders', 'business', 'management', 'entrepreneurship', 'entrepreneur', 'teamwork', 'strategy', 'marketing', 'startups', 'negotiation', 'influence'] },
  'Life & Human Nature': { specific: ['human nature', 'the human condition', 'human condition', 'people', 'men', 'women'], broad: ['life', 'living', 'existence', 'vida', 'vie', 'leben'] },
  'Loneliness & Solitude': { specific: ['loneliness', 'lonely', 'solitude', 'alone', 'being alone', 'isolation', 'introvert', 'introverts'], moods: ['poignant'] },
  'Love & Relationships': { specific: ['love', 'romance', 'romantic', 'relationships', 'relationship', 'heartbreak', 'dating', 'soulmates', 'soulmate', 'passion', 'desire', 'affection', 'kisses', 'amor', 'amour', 'liebe'], broad: ['heart'] },
  'Marriage & Partnership': { specific: ['marriage', 'married', 'wedding', 'weddings', 'husband', 'wife', 'husbands', 'wives', 'partnership', 'spouse', 'divorce', 'anniversary', 'commitment'] },
  'Memory & Nostalgia': { specific: ['memory', 'memories', 'nostalgia', 'remembering', 'the past', 'past', 'reminiscence', 'forgetting', 'recuerdos'], moods: ['poignant'] },
  'Mental Health & Recovery': { specific: ['mental health', 'depression', 'anxiety', 'recovery', 'therapy', 'self care', 'addiction', 'sobriety', 'trauma', 'mental illness', 'ptsd', 'burnout', 'self love', 'healing'] },
  'Money & Wealth': { specific: ['money', 'wealth', 'riches', 'rich', 'poverty', 'greed', 'finance', 'investing', 'economics', 'debt', 'materialism', 'frugality', 'capitalism'] },
  'Motivation & Success': { specific: ['motivation', 'motivational', 'success', 'goals', 'ambition', 'achievement', 'perseverance', 'persistence', 'determination', 'discipline', 'self improvement', 'failure', 'dreams', 'productivity'], moods: ['inspirational'] },
  'Nature & Environment': { specific: ['nature', 'environment', 'trees', 'flowers', 'animals', 'earth', 'seasons', 'ocean', 'sea', 'mountains', 'climate', 'climate change', 'conservation', 'gardening', 'garden', 'rain', 'weather', 'birds', 'forests', 'spring', 'autumn', 'winter', 'summer', 'naturaleza', 'nature writing'] },
  'Parenting & Children': { specific: ['parenting', 'children', 'kids', 'childhood', 'babies', 'motherhood', 'fatherhood', 'mom', 'dad', 'raising children'] },
  'Politics & Governance': { specific: ['politics', 'government', 'democracy', 'power', 'politicians', 'elections', 'voting', 'tyranny', 'patriotism', 'revolution', 'nation', 'the state', 'political'] },
  'Science & Reason': { specific: ['science', 'reason', 'logic', 'rationality', 'physics', 'mathematics', 'math', 'maths', 'evidence', 'scientists', 'technology', 'research', 'astronomy', 'biology', 'evolution', 'atheism'] },
  'Silence & Stillness': { specific: ['silence', 'stillness', 'quiet', 'calm', 'meditation', 'mindfulness', 'contemplation', 'listening', 'patience'], moods: ['reflective'] },
  'Spirituality & Faith': { specific: ['spirituality', 'spiritual', 'religion', 'prayer', 'soul', 'divine', 'belief', 'heaven', 'worship', 'grace', 'sacred', 'mysticism'], broad: ['faith', 'god'] },
  'Time & Mortality': { specific: ['time', 'mortality', 'death', 'dying', 'eternity', 'future', 'the future', 'moments', 'present moment', 'carpe diem', 'transience', 'muerte', 'mort'], moods: ['reflective'] },
  'Travel & Adventure': { specific: ['travel', 'traveling', 'travelling', 'adventure', 'journey', 'journeys', 'exploration', 'explore', 'wanderlust', 'road trips', 'voyage', 'viajes'] },
  'War & Conflict': { specific: ['war', 'conflict', 'violence', 'soldiers', 'battle', 'military', 'enemies', 'enemy', 'warfare', 'weapons', 'guerra'], moods: ['serious'] },
  'Wisdom & Philosophy': { specific: ['wisdom', 'philosophy', 'wise', 'meaning', 'meaning of life', 'stoicism', 'existentialism', 'insight', 'understanding', 'sabiduría'], broad: ['thinking', 'thought', 'mind', 'truth'] },
  'Work & Purpose': { specific: ['work', 'purpose', 'career', 'jobs', 'job', 'labor', 'labour', 'vocation', 'calling', 'hard work', 'craftsmanship', 'diligence', 'employment', 'trabajo'] },
};

/** Tags naming only a mood (a category tag may imply moods too, above). */
export const moodTags: Record<string, string[]> = {
  challenging: ['challenging', 'provocative', 'thought provoking', 'tough love', 'controversial', 'uncomfortable truths'],
  dark: ['dark', 'darkness', 'despair', 'pessimism', 'nihilism', 'cynicism', 'bleak', 'dark humor', 'dark humour', 'gothic', 'morbid'],
  humorous: ['humorous', 'funny', 'hilarious', 'lol', 'witty', 'dark humor', 'dark humour', 'sarcasm', 'silly'],
  inspirational: ['inspirational', 'inspiration', 'inspiring', 'motivational', 'empowerment', 'inspirational quotes'],
  poignant: ['poignant', 'sad', 'sadness', 'melancholy', 'bittersweet', 'heartbreaking', 'tears', 'tristeza'],
  reflective: ['reflective', 'reflection', 'thoughtful', 'deep', 'deep thoughts', 'introspection', 'contemplative', 'philosophical'],
  serious: ['serious', 'grave', 'sober', 'solemn'],
  uplifting: ['uplifting', 'encouraging', 'encouragement', 'positive', 'cheerful', 'feel good', 'heartwarming', 'comforting'],
};

/** Tags naming a faith tradition; they also suggest Spirituality & Faith as a broad category. */
export const faithTags: Record<string, string[]> = {
  Christian: ['christianity', 'christian', 'jesus', 'christ', 'jesus christ', 'bible', 'gospel', 'church', 'catholic', 'catholicism', 'protestant', 'orthodox christianity', 'saints', 'holy spirit', 'cristianismo'],
  Islamic: ['islam', 'islamic', 'muslim', 'quran', 'koran', 'allah', 'prophet muhammad', 'sufism', 'sufi', 'hadith', 'ramadan'],
  Buddhist: ['buddhism', 'buddhist', 'buddha', 'zen', 'zen buddhism', 'dhammapada', 'bodhisattva', 'nirvana'],
  Jewish: ['judaism', 'jewish', 'torah', 'talmud', 'rabbi', 'rabbinic', 'hasidism', 'kabbalah', 'jews'],
  Hindu: ['hinduism', 'hindu', 'bhagavad gita', 'gita', 'vedanta', 'upanishads', 'krishna', 'vedas'],
  Taoist: ['taoism', 'taoist', 'tao', 'dao', 'daoism', 'tao te ching', 'lao tzu', 'laozi', 'zhuangzi'],
  Confucian: ['confucianism', 'confucian', 'confucius', 'analects', 'mencius', 'filial piety'],
};

/** The category faith tags suggest when no specific tag names one. */
export const faithCategory = 'Spirituality & Faith';

/** Values that mean "no faith tradition" in a curated `faith_tradition` column. */
export const noFaithValues = ['', 'none', 'null', 'n/a', 'na', '-', 'secular'];
