/**
 * The feeds `npm run screenshot` serves on loopback: a small, believable library (news, a blog, a
 * podcast, a release feed) for the README's picture of the river. Every name and text is made up.
 * Dates are minutes before "now", so the picture reads the same whenever it is taken.
 */

export interface ShotItem {
  title: string;
  /** HTML, as feeds carry it. */
  html: string;
  minutesAgo: number;
  author?: string;
  categories?: string[];
  /** A podcast episode: its length in seconds (the enclosure is served as a small file). */
  episode?: { seconds: number; season: number; number: number };
}

export interface ShotFeed {
  /** Path on the loopback host; the feed's own files live under it. */
  slug: string;
  title: string;
  folder: string | null;
  /** The feed's icon: a letter on a colour (drawn to PNG by the script). */
  icon: { letter: string; colour: string };
  podcast?: boolean;
  items: ShotItem[];
}

const p = (...paras: string[]) => paras.map((t) => `<p>${t}</p>`).join('');

export const SHOT_FEEDS: ShotFeed[] = [
  {
    slug: 'harbour-gazette',
    title: 'Harbour Town Gazette',
    folder: 'News',
    icon: { letter: 'H', colour: '#1d4ed8' },
    items: [
      {
        title: 'Ferry timetable changes from Monday as the north pier reopens',
        html: p(
          'The 7:40 crossing returns to the north pier after six weeks of repairs, and the late boat on Fridays moves to 23:10. Season tickets bought for the south pier stay valid until the end of the month.',
        ),
        minutesAgo: 4,
        categories: ['Transport'],
      },
      {
        title: 'Council backs a car-free market street on Saturdays',
        html: p(
          'After a summer trial that traders called "better than expected", the market street will close to cars from 8 am to 4 pm every Saturday, starting next month.',
        ),
        minutesAgo: 95,
        categories: ['Local politics'],
      },
      {
        title: 'Storm warning lifted; harbour wall held up well',
        html: p(
          'Gusts reached 110 km/h overnight. The new section of the harbour wall took its first real test.',
        ),
        minutesAgo: 260,
      },
    ],
  },
  {
    slug: 'compiler-notes',
    title: 'Compiler Notes',
    folder: 'Tech',
    icon: { letter: 'C', colour: '#7c3aed' },
    items: [
      {
        title: 'Why our incremental builds got 40% faster (it was the file watcher)',
        html: p(
          'We spent a week profiling the type checker before noticing that half of every rebuild went to re-reading unchanged files. A content hash per file, checked before the timestamp, fixed it.',
          'The profiles, the fix, and what we measured afterwards.',
        ),
        minutesAgo: 12,
        author: 'Priya Raman',
        categories: ['Performance', 'Build tools'],
      },
      {
        title: 'Notes from a year of writing a parser by hand',
        html: p(
          'Error recovery matters more than speed, and a good error message is a feature users notice.',
        ),
        minutesAgo: 1_500,
        author: 'Priya Raman',
      },
    ],
  },
  {
    slug: 'plain-text-radio',
    title: 'Plain Text Radio',
    folder: 'Podcasts',
    icon: { letter: 'P', colour: '#db2777' },
    podcast: true,
    items: [
      {
        title: 'Feeds, pings and the open web, with Tomas Okafor',
        html: p(
          'Tomas has run a feed aggregator for fifteen years. We talk about why RSS never went away, what real-time notifications changed, and how he reads 400 feeds before breakfast.',
        ),
        minutesAgo: 38,
        episode: { seconds: 2_915, season: 3, number: 12 },
      },
      {
        title: 'Your notes app is a database',
        html: p('Plain text, sync, and what happens to your notes in twenty years.'),
        minutesAgo: 10_200,
        episode: { seconds: 2_480, season: 3, number: 11 },
      },
    ],
  },
  {
    slug: 'anna-lindqvist',
    title: 'Anna Lindqvist',
    folder: 'Friends',
    icon: { letter: 'A', colour: '#059669' },
    items: [
      {
        title: 'The garden in November',
        html: p(
          'Last of the kale, first frost on the beds, and a plan for the spring: fewer tomatoes, more beans, and a proper compost bin this time.',
        ),
        minutesAgo: 64,
      },
      {
        title: 'A week without my phone',
        html: p('Day three was the hardest. Day five I read two books.'),
        minutesAgo: 4_300,
      },
    ],
  },
  {
    slug: 'open-source-weekly',
    title: 'Open Source Weekly',
    folder: 'Tech',
    icon: { letter: 'O', colour: '#ea580c' },
    items: [
      {
        title: 'Issue 212: a new SQLite release, faster regexes, and a tiny text editor',
        html: p(
          'This week: what changed in the query planner, a regex engine that never backtracks, and an editor in 2,000 lines of C that people actually use.',
        ),
        minutesAgo: 140,
      },
      {
        title: 'Issue 211: the year in terminals',
        html: p('Ten terminal emulators compared on start-up time, font rendering and memory.'),
        minutesAgo: 10_100,
      },
    ],
  },
  {
    slug: 'morning-wire',
    title: 'The Morning Wire',
    folder: 'News',
    icon: { letter: 'M', colour: '#b91c1c' },
    items: [
      {
        title: 'Rail strike called off after overnight talks',
        html: p('Trains will run as normal this week. The union said the new offer "meets us halfway".'),
        minutesAgo: 180,
        categories: ['Business'],
      },
      {
        title: 'What the new energy prices mean for your bill',
        html: p('Most households will pay about 6% less from January. Here is how to check yours.'),
        minutesAgo: 330,
      },
    ],
  },
  {
    slug: 'release-notes',
    title: 'Lighthouse Maps',
    folder: 'Tech',
    icon: { letter: 'L', colour: '#0891b2' },
    items: [
      {
        title: 'Version 4.2: offline tiles and a dark map style',
        html: p(
          'Download a region once and browse it without a connection. The dark style follows your system.',
        ),
        minutesAgo: 410,
      },
    ],
  },
  {
    slug: 'night-sky',
    title: 'Night Sky This Week',
    folder: null,
    icon: { letter: 'N', colour: '#334155' },
    items: [
      {
        title: 'Jupiter at its brightest, and where to look',
        html: p('Look south-east after nine. Binoculars will show four of its moons in a line.'),
        minutesAgo: 500,
      },
    ],
  },
];
