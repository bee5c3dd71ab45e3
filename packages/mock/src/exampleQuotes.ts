import { type Era, type FaithTradition, lengthOfText, type Mood, type Quote } from '@quotes/contract';

/**
 * The mock's small corpus: the contract's own example and well-known quotations by authors long
 * in the public domain, tagged with the contract's taxonomy, so answers vary and a filtered
 * request gets a quote that fits.
 * `length` is computed from the text by the contract's own rule.
 */
interface ExampleQuote {
  id: string;
  text: string;
  author: string;
  category: Quote['category'];
  secondary: Quote['category'] | null;
  moods: Mood[];
  era: Era;
  faith: FaithTradition | null;
}

const examples: ExampleQuote[] = [
  {
    id: 'q_7Hx2KpQ9',
    text: 'The river does not argue with the stone; it simply keeps arriving.',
    author: 'Ilse Marrowby',
    category: 'Wisdom & Philosophy',
    secondary: 'Nature & Environment',
    moods: ['reflective', 'uplifting'],
    era: 'Modern',
    faith: null,
  },
  {
    id: 'q_mAur0001',
    text: 'You have power over your mind, not outside events. Realize this, and you will find strength.',
    author: 'Marcus Aurelius',
    category: 'Courage & Strength',
    secondary: 'Wisdom & Philosophy',
    moods: ['inspirational', 'serious'],
    era: 'Ancient',
    faith: null,
  },
  {
    id: 'q_sEne0002',
    text: 'It is not that we have a short time to live, but that we waste a lot of it.',
    author: 'Seneca',
    category: 'Time & Mortality',
    secondary: 'Life & Human Nature',
    moods: ['reflective', 'serious'],
    era: 'Ancient',
    faith: null,
  },
  {
    id: 'q_lAoT0003',
    text: 'A journey of a thousand miles begins with a single step.',
    author: 'Laozi',
    category: 'Motivation & Success',
    secondary: 'Travel & Adventure',
    moods: ['inspirational'],
    era: 'Ancient',
    faith: 'Taoist',
  },
  {
    id: 'q_cOnf0004',
    text: 'It does not matter how slowly you go as long as you do not stop.',
    author: 'Confucius',
    category: 'Hardship & Adversity',
    secondary: 'Motivation & Success',
    moods: ['inspirational', 'uplifting'],
    era: 'Ancient',
    faith: 'Confucian',
  },
  {
    id: 'q_dHam0005',
    text: 'Hatred does not cease by hatred, but only by love; this is the eternal rule.',
    author: 'The Dhammapada',
    category: 'Forgiveness & Letting Go',
    secondary: 'Love & Relationships',
    moods: ['reflective', 'uplifting'],
    era: 'Ancient',
    faith: 'Buddhist',
  },
  {
    id: 'q_jUli0006',
    text: 'All shall be well, and all shall be well, and all manner of thing shall be well.',
    author: 'Julian of Norwich',
    category: 'Hope & Optimism',
    secondary: 'Spirituality & Faith',
    moods: ['uplifting'],
    era: 'Medieval',
    faith: 'Christian',
  },
  {
    id: 'q_rUmi0007',
    text: 'The wound is the place where the light enters you.',
    author: 'Rumi',
    category: 'Grief & Loss',
    secondary: 'Spirituality & Faith',
    moods: ['poignant', 'uplifting'],
    era: 'Medieval',
    faith: 'Islamic',
  },
  {
    id: 'q_hIll0008',
    text: 'If I am not for myself, who will be for me? But if I am only for myself, what am I? And if not now, when?',
    author: 'Hillel the Elder',
    category: 'Conscience & Integrity',
    secondary: 'Community & Service',
    moods: ['challenging', 'reflective'],
    era: 'Ancient',
    faith: 'Jewish',
  },
  {
    id: 'q_gItA0009',
    text: 'You have a right to your actions, but never to the fruits of your actions. Act for the sake of the action; do not be attached to inaction either.',
    author: 'Bhagavad Gita',
    category: 'Work & Purpose',
    secondary: 'Spirituality & Faith',
    moods: ['serious', 'reflective'],
    era: 'Ancient',
    faith: 'Hindu',
  },
  {
    id: 'q_mOnt0010',
    text: 'My life has been full of terrible misfortunes, most of which never happened.',
    author: 'Michel de Montaigne',
    category: 'Humor & Wit',
    secondary: 'Doubt & Uncertainty',
    moods: ['humorous', 'reflective'],
    era: 'Early Modern',
    faith: null,
  },
  {
    id: 'q_sHak0011',
    text: 'Give sorrow words; the grief that does not speak whispers the o’er-fraught heart and bids it break.',
    author: 'William Shakespeare',
    category: 'Grief & Loss',
    secondary: 'Art & Literature',
    moods: ['poignant', 'dark'],
    era: 'Early Modern',
    faith: null,
  },
  {
    id: 'q_tHor0012',
    text: 'I went to the woods because I wished to live deliberately, to front only the essential facts of life, and see if I could not learn what it had to teach, and not, when I came to die, discover that I had not lived.',
    author: 'Henry David Thoreau',
    category: 'Nature & Environment',
    secondary: 'Life & Human Nature',
    moods: ['reflective', 'inspirational'],
    era: 'Modern',
    faith: null,
  },
  {
    id: 'q_tEnn0017',
    text: "'Tis better to have loved and lost than never to have loved at all.",
    author: 'Alfred, Lord Tennyson',
    category: 'Grief & Loss',
    secondary: 'Love & Relationships',
    moods: ['poignant', 'reflective'],
    era: 'Modern',
    faith: null,
  },
  {
    id: 'q_dIck0013',
    text: 'Hope is the thing with feathers that perches in the soul, and sings the tune without the words, and never stops at all.',
    author: 'Emily Dickinson',
    category: 'Hope & Optimism',
    secondary: 'Art & Literature',
    moods: ['uplifting', 'poignant'],
    era: 'Modern',
    faith: null,
  },
  {
    id: 'q_wIld0014',
    text: 'Always forgive your enemies; nothing annoys them so much.',
    author: 'Oscar Wilde',
    category: 'Humor & Wit',
    secondary: 'Forgiveness & Letting Go',
    moods: ['humorous'],
    era: 'Modern',
    faith: null,
  },
  {
    id: 'q_dOug0015',
    text: 'It is easier to build strong children than to repair broken men.',
    author: 'Frederick Douglass',
    category: 'Parenting & Children',
    secondary: 'Justice & Equality',
    moods: ['serious', 'challenging'],
    era: 'Modern',
    faith: null,
  },
  {
    id: 'q_eMer0016',
    text: 'What lies behind us and what lies before us are tiny matters compared to what lies within us.',
    author: 'Ralph Waldo Emerson',
    category: 'Courage & Strength',
    secondary: 'Wisdom & Philosophy',
    moods: ['inspirational'],
    era: 'Modern',
    faith: null,
  },
];

export const exampleQuotes: readonly Quote[] = examples.map((example) => ({
  id: example.id,
  text: example.text,
  author: example.author,
  category: example.category,
  secondary_category: example.secondary,
  mood: example.moods.join(','),
  era: example.era,
  length: lengthOfText(example.text) as Quote['length'],
  faith_tradition: example.faith,
}));
