// The storyboard planner (prompt → scenes, look, length), engine-neutral: the offline composers of
// both engines draw what it decides, so its choices are tested once here. The corpus test
// (corpus.test.ts) runs it over 250 prompts in 14 languages; these are its rules one by one.
import { describe, expect, it } from 'vitest';
import { getEngine } from '../../src/engines/index.js';
import { resolveDuration } from '../../src/engines/limits.js';
import { statedDurationSeconds } from '../../src/storyboard/duration.js';
import { anyOf, lexiconFor, LEXICONS } from '../../src/storyboard/lexicon.js';
import { NAMED_COLOURS } from '../../src/storyboard/look.js';
import { digitValue, figureAt, figuresIn } from '../../src/storyboard/numbers.js';
import { plan as planOf, planStoryboard } from '../../src/storyboard/plan.js';
import { sentences } from '../../src/storyboard/text.js';
import type { Scene } from '../../src/storyboard/types.js';
import { hyperframesTexts, lottieTexts } from './corpus.js';

const plan = (prompt: string, durationSeconds: number | null = null, instructions: string | null = null) =>
  planStoryboard({ prompt, instructions, durationSeconds });
/** The whole plan (its directions too) of a prompt at its natural length. */
const fullPlan = (prompt: string) => planOf({ prompt, instructions: null, durationSeconds: null });
const kinds = (prompt: string) => plan(prompt).scenes.map((s) => s.kind);
const sceneOf = <K extends Scene['kind']>(prompt: string, kind: K): Extract<Scene, { kind: K }> => {
  const scene: Scene | undefined = plan(prompt).scenes.find((s) => s.kind === kind);
  if (!scene) throw new Error(`no ${kind} scene for: ${prompt}`);
  return scene as Extract<Scene, { kind: K }>;
};
/** A timeline as shown: each item's time and text. */
const timeline = (prompt: string) => sceneOf(prompt, 'timeline').items.map((i) => [i.time, i.text]);
/** A comparison as shown: each option's name, figure and features, the raised one and its badge. */
const shown = (prompt: string) => {
  const c = sceneOf(prompt, 'comparison');
  return { options: c.options.map((o) => [o.name, o.figure, o.features]), highlight: c.highlight, badge: c.badge };
};

describe('words as patterns', () => {
  const words = (list: string[]) => new RegExp(anyOf(list), 'iu');

  it('take the marks a text adds (Arabic vowel signs, a Devanagari nukta) and no others', () => {
    expect(words(['مطبخ']).exec('في مَطْبَخ كبير')?.[0]).toBe('مَطْبَخ');
    expect(words(['ज्यादा']).test('ज़्यादा'.normalize('NFC'))).toBe(true);
    expect(words(['cafe']).test('café')).toBe(false);
  });

  it('bound the words of spaced scripts only, and the longest wins whatever the bounds', () => {
    expect(words(['bar']).test('barbecue')).toBe(false);
    expect(words(['パン']).exec('パンなど')?.[0]).toBe('パン');
    expect(words(['more', 'more than']).exec('more than 5')?.[0]).toBe('more than');
    expect(words(['km', '10 km', 'mehr als 10 km']).exec('mehr als 10 km')?.[0]).toBe('mehr als 10 km');
    expect(words(['10 km']).test('10 kmh')).toBe(false);
    expect(words(['10 km']).exec('bis 10 km.')?.[0]).toBe('10 km');
  });
});

describe("the user's words, exactly", () => {
  // The bug that opened issue 30: an English article rule turned "panadería artesanal" into "panaderían".
  const cases = [
    [
      'es',
      'Un anuncio de 8 segundos para una panadería artesanal en Sevilla. Pan recién hecho.',
      'panadería artesanal',
    ],
    ['pt', 'Uma padaria artesanal em Lisboa. A padaria abre às 6.', 'padaria artesanal'],
    ['it', 'Una pizzeria antica a Napoli. Pizza più buona è qui.', 'più buona è qui'],
    ['fr', 'Un café à emporter, une crêpe à offrir. Été à Étretat.', 'crêpe à offrir'],
    ['de', 'Die Bäckerei öffnet um 6. Frühstück über alles.', 'Frühstück über alles'],
    ['ca', 'Una cafeteria única a Girona. Entrada gratuïta avui.', 'cafeteria única a Girona'],
    ['tr', 'Kadıköy’de güzel bir akşam. Çay ücretsiz.', 'güzel bir akşam'],
  ] as const;
  for (const [lang, prompt, words] of cases) {
    it(`keeps "${words}" as typed on screen in both engines (${lang})`, () => {
      const spec = { prompt, instructions: null, durationSeconds: null, assets: [], width: 1080, height: 1920 };
      const html = hyperframesTexts(getEngine('hyperframes').composeOffline(spec))
        .texts.map((t) => t.text)
        .join('\n');
      const lottie = lottieTexts(getEngine('lottie').composeOffline(spec))
        .texts.map((t) => t.text)
        .join('\n');
      expect(html).toContain(words);
      // Lottie sets headlines in capitals when the look says so: the same letters, upper case.
      expect(lottie.includes(words) || lottie.includes(words.toLocaleUpperCase(lang))).toBe(true);
    });
  }
});

describe('language', () => {
  it('has a file for each of the 14 languages, and detects them', () => {
    expect([...LEXICONS.keys()].sort()).toEqual([
      'ar',
      'de',
      'en',
      'es',
      'fr',
      'hi',
      'it',
      'ja',
      'ko',
      'nl',
      'pt',
      'ru',
      'tr',
      'zh',
    ]);
    const samples: Record<string, string> = {
      en: 'Three tips for better sleep',
      es: 'Tres consejos para dormir mejor',
      fr: 'Trois conseils pour mieux dormir',
      de: 'Drei Tipps für besseren Schlaf',
      pt: 'Três dicas para dormir melhor',
      it: 'Tre consigli per dormire meglio',
      nl: 'Drie tips voor beter slapen',
      ja: 'よく眠るための3つのコツ',
      zh: '改善睡眠的三个小贴士',
      ko: '잠을 잘 자는 세 가지 팁',
      ar: 'ثلاث نصائح لنوم أفضل',
      hi: 'बेहतर नींद के लिए तीन सुझाव',
      ru: 'Три совета для хорошего сна',
      tr: 'Daha iyi uyku için üç ipucu',
    };
    for (const [lang, text] of Object.entries(samples)) expect(lexiconFor(text).language, text).toBe(lang);
    // A language without a file: the language-neutral rules.
    expect(lexiconFor('Rahisi kupika chakula kitamu nyumbani').language).toBe('und');
    expect(plan('5, 4, 3, 2, 1 สวัสดีปีใหม่').scenes.map((s) => s.kind)).toEqual(['countdown']);
  });

  it('splits sentences with Intl.Segmenter in every script, after figures, not after abbreviations or in dates', () => {
    const of = (text: string, lang: string) => sentences({ text, start: 0 }, lang).map((s) => s.text);
    expect(of('Cookies cost $2.50. 98% come back. See e.g. our menu.', 'en')).toEqual([
      'Cookies cost $2.50.',
      '98% come back.',
      'See e.g. our menu.',
    ]);
    expect(of('新しい。速い！安い？', 'ja')).toEqual(['新しい。', '速い！', '安い？']);
    expect(of('हर सुबह ताज़ा ब्रेड। ऑर्डर करें।', 'hi')).toEqual(['हर सुबह ताज़ा ब्रेड।', 'ऑर्डर करें।']);
    expect(kinds('Приглашаем на открытие! Суббота, 12 октября, в 15:00, ул. Ленина, 24.')).toHaveLength(2);
  });
});

describe('figures', () => {
  const lex = (lang: string) => LEXICONS.get(lang)!;
  const figures = (text: string, lang: string) =>
    figuresIn({ text, start: 0 }, lex(lang)).map((f) => ({
      text: f.figure.text,
      value: f.figure.value,
      quantity: f.quantity,
    }));

  it('reads digits of any script and local separators', () => {
    expect(digitValue('٧')).toBe(7);
    expect(digitValue('७')).toBe(7);
    expect(digitValue('７')).toBe(7);
    expect(figures('Más de 15.000 familias', 'es')).toEqual([{ text: '15.000', value: 15000, quantity: true }]);
    expect(figures('Over 12,000 teams', 'en')).toEqual([{ text: '12,000', value: 12000, quantity: true }]);
    expect(figures('Plus de 3 200 producteurs', 'fr')).toEqual([{ text: '3 200', value: 3200, quantity: true }]);
    expect(figures('أكثر من ١٢٬٠٠٠ عميل', 'ar')).toEqual([{ text: '١٢٬٠٠٠', value: 12000, quantity: true }]);
    expect(figures('1,20,000 किसान', 'hi')).toEqual([{ text: '1,20,000', value: 120000, quantity: true }]);
    expect(figures('Umsatz 3,5 Mio. €', 'de')[0]).toMatchObject({ value: 3.5 });
    expect(figures('El 92 % repite', 'es')).toEqual([{ text: '92 %', value: 92, quantity: true }]);
    expect(figures('超过12,000家企业', 'zh')).toEqual([{ text: '12,000家', value: 12000, quantity: true }]);
  });

  it('counts only quantities: not times, dates, years, ids, codes, phone numbers or addresses', () => {
    const quantity = (text: string, lang = 'en') => figures(text, lang).map((f) => f.quantity);
    expect(quantity('open 7 to 14 h')).toEqual([false, false]);
    expect(quantity('Desk 4B, Gate A32, flight BA 2490, the A320')).toEqual([false, false, false, false]);
    expect(quantity('Desk 12 is open')).toEqual([false]);
    expect(quantity('boards at 14:45 on June 7')).toEqual([false, false, false]);
    expect(quantity('Founded in 1998')).toEqual([false]);
    expect(quantity('Call 020 7946 0018')).toEqual([false, false, false]);
    expect(quantity('Call +34 912 345 678').includes(true)).toBe(false);
    expect(quantity('at 14 Elm Street')).toEqual([false]);
    expect(quantity('Abierto de 7 a 14 h', 'es')).toEqual([false, false]);
    expect(quantity('Freitag, 21. Juni, ab 15 Uhr', 'de')).toEqual([false, false]);
    expect(quantity('$2.4M raised, 98% renew, 200 towns, 40 km')).toEqual([true, true, true, true]);
  });

  it("counts up in the figure's own digits and separators", () => {
    const [f] = figuresIn({ text: '١٢٬٠٠٠', start: 0 }, lex('ar'));
    expect(figureAt(f!.figure, 1500)).toBe('١٬٥٠٠');
    const [g] = figuresIn({ text: '$18.6M', start: 0 }, lex('en'));
    expect(figureAt(g!.figure, 9.3)).toBe('$9.3M');
    const [h] = figuresIn({ text: '1,20,000', start: 0 }, lex('hi'));
    expect(figureAt(h!.figure, 100000)).toBe('1,00,000');
  });
});

describe('scenes', () => {
  it(
    'a figure leading or ending its sentence is a counter labelled by the rest; ' +
      'anywhere else the sentence stays whole',
    () => {
      expect(sceneOf('Hello. Over 12,000 teams use it every day.', 'counter')).toMatchObject({
        figure: { text: '12,000' },
        qualifier: 'Over',
        label: 'Teams use it every day',
      });
      expect(sceneOf('Big year. Revenue hit $1.2M.', 'counter')).toMatchObject({
        figure: { text: '$1.2M' },
        label: 'Revenue',
      });
      expect(sceneOf('Hello. 98% of customers come back.', 'progress')).toMatchObject({
        percent: 98,
        label: 'of customers come back',
      });
      // "This year we want to reach towns": a label the figure's absence would break.
      expect(plan('Bikes. This year we want to reach 200 towns.').scenes[1]).toMatchObject({
        kind: 'statement',
        text: 'This year we want to reach 200 towns',
      });
      // The headline keeps its figure and no counter repeats it.
      expect(kinds('Revenue grew 42% to $18.6M. Customers love it.')).toEqual(['title', 'statement']);
    },
  );

  it('three figures of a kind with their names are a bar chart', () => {
    expect(
      sceneOf('Signups by quarter: Q1 12k, Q2 18k, Q3 25k and Q4 31k.', 'bars').bars.map((b) => [
        b.label,
        b.figure.text,
      ]),
    ).toEqual([
      ['Q1', '12k'],
      ['Q2', '18k'],
      ['Q3', '25k'],
      ['Q4', '31k'],
    ]);
    expect(
      sceneOf('Night market. 300 stalls, 40 food trucks, 12 stages and 5 bars.', 'bars').bars.map((b) => b.label),
    ).toEqual(['stalls', 'food trucks', 'stages', 'bars']);
  });

  it('numbered and bulleted steps are a steps scene, each step whole; no counters', () => {
    const s = plan(
      'How to reset your router: 1. Unplug it. 2. Wait 30 seconds. 3. Plug it back in. 4. ' +
        'Wait for the light to turn green.',
    );
    expect(s.scenes.map((x) => x.kind)).toEqual(['title', 'steps']);
    expect(s.scenes[0]).toMatchObject({ title: 'How to reset your router' });
    expect(s.scenes[1]).toMatchObject({
      steps: [
        { marker: '1', text: 'Unplug it' },
        { marker: '2', text: 'Wait 30 seconds' },
        { marker: '3', text: 'Plug it back in' },
        { marker: '4', text: 'Wait for the light to turn green' },
      ],
    });
    expect(s.durationSeconds).not.toBe(30);
    expect(
      sceneOf(
        'Kaffee kochen: Schritt 1: Wasser erhitzen. Schritt 2: Kaffee mahlen. Schritt 3: Aufgießen.',
        'steps',
      ).steps.map((x) => x.text),
    ).toEqual(['Wasser erhitzen', 'Kaffee mahlen', 'Aufgießen']);
    expect(
      sceneOf('How to pack:\n- roll your shirts\n- shoes at the bottom\n- liquids in a bag', 'steps').steps,
    ).toEqual([
      { marker: null, text: 'roll your shirts' },
      { marker: null, text: 'shoes at the bottom' },
      { marker: null, text: 'liquids in a bag' },
    ]);
  });

  it('"N tips: a, b and c" is a list of those N, with no counter of N', () => {
    expect(
      plan('3 tips for better sleep: dim the lights, skip coffee after 2 pm, and keep a schedule.').scenes.map((s) => [
        s.kind,
        s.kind === 'list' ? s.items : null,
      ]),
    ).toEqual([
      ['title', null],
      ['list', ['Dim the lights', 'Skip coffee after 2 pm', 'Keep a schedule']],
    ]);
    expect(sceneOf('Nimbus. It syncs instantly, works offline, and encrypts everything.', 'list').items).toEqual([
      'It syncs instantly',
      'Works offline',
      'Encrypts everything',
    ]);
  });

  it('a countdown shows its numbers in order, then the payoff whole; never a chart', () => {
    expect(plan('5, 4, 3, 2, 1 — Happy New Year from all of us at Casa Lupa!').scenes).toMatchObject([
      { kind: 'countdown', numbers: ['5', '4', '3', '2', '1'], payoff: 'Happy New Year from all of us at Casa Lupa!' },
    ]);
    expect(sceneOf('Drei, zwei, eins – frohes neues Jahr!', 'countdown')).toMatchObject({
      numbers: ['Drei', 'zwei', 'eins'],
      payoff: 'frohes neues Jahr!',
    });
    expect(sceneOf('٣، ٢، ١… انطلقت التخفيضات!', 'countdown').numbers).toEqual(['٣', '٢', '١']);
  });

  it('quotes are cards with their attribution; calls to action close with their address', () => {
    expect(sceneOf('Nimbus. "It changed how our team thinks," says Maria Lopez.', 'quote')).toMatchObject({
      quote: 'It changed how our team thinks',
      attribution: 'says Maria Lopez',
    });
    expect(plan('Nimbus. Sign up at nimbus.app today! It is fast.').scenes.at(-1)).toMatchObject({
      kind: 'cta',
      action: 'Sign up',
      detail: 'nimbus.app',
    });
    expect(sceneOf('新しいカメラアプリ。今すぐダウンロード：lumen.jp', 'cta')).toMatchObject({
      action: '今すぐダウンロード',
      detail: 'lumen.jp',
    });
    expect(sceneOf('Nuevo café en Madrid. Visítanos en cafe.es', 'cta')).toMatchObject({
      action: 'Visítanos',
      detail: 'cafe.es',
    });
    expect(sceneOf('Docs. Read more at docs.example.co.uk', 'cta')).toMatchObject({
      action: 'Read more',
      detail: 'docs.example.co.uk',
    });
    expect(kinds('Built with Node.js and React. It runs on Node.js too.')).toEqual(['title', 'statement']);
  });

  it('titles drop what names the video, in any language, and style requests; the plan lists them as directions', () => {
    const cases: Array<[string, string, string]> = [
      ['A 10-second explainer: revenue grew 42%.', 'Revenue grew 42%', 'A 10-second explainer:'],
      ['A launch teaser for Nimbus, the calm note app', 'Nimbus, the calm note app', 'A launch teaser for'],
      [
        'Un anuncio de 8 segundos para una panadería artesanal en Sevilla.',
        'Una panadería artesanal en Sevilla',
        'Un anuncio de 8 segundos para',
      ],
      ['Ein 10-Sekunden-Video für die Bäckerei Kornblume.', 'Die Bäckerei Kornblume', 'Ein 10-Sekunden-Video für'],
      ['パン工房こむぎの8秒広告。', 'パン工房こむぎ', 'の8秒広告'],
      ['为我们的手工面包店做一个8秒的广告。', '我们的手工面包店', '做一个8秒的广告'],
      [
        "Kadıköy'deki Simit Sarayı için 10 saniyelik bir reklam.",
        "Kadıköy'deki Simit Sarayı",
        'için 10 saniyelik bir reklam',
      ],
      ['हमारी बेकरी के लिए 8 सेकंड का विज्ञापन।', 'हमारी बेकरी', 'के लिए 8 सेकंड का विज्ञापन'],
    ];
    for (const [prompt, title, direction] of cases) {
      const p = fullPlan(prompt);
      expect(p.storyboard.scenes[0], prompt).toMatchObject({ kind: 'title', title });
      expect(p.directions, prompt).toContain(direction);
    }
    expect(plan('Quarterly results with teal accents and serif type').scenes[0]).toMatchObject({
      title: 'Quarterly results',
    });
    expect(plan('An evening at the Atlas Gallery.').scenes[0]).toMatchObject({
      title: 'An evening at the Atlas Gallery',
    });
  });

  it('long prompts are summarised by whole sentences, structure and the call to action first', () => {
    const numbers = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    numbers.push('eleven', 'twelve', 'thirteen', 'fourteen');
    const sentences = numbers.map((n) => `Point number ${n} matters`);
    const prompt = `Big news. ${sentences.join('. ')}. 30% of them renew. Join us at acme.com`;
    const p = planOf({ prompt, instructions: null, durationSeconds: 6 });
    expect(p.summarised).toBe(true);
    expect(p.storyboard.scenes.map((x) => x.kind)).toEqual(['title', 'progress', 'cta']);
    for (const scene of plan(prompt).scenes) if (scene.kind === 'statement') expect(prompt).toContain(scene.text);
  });

  it("the title's pictogram: only what its words name, the first such thing; never a decoration", () => {
    const prompt = '新しいカフェが渋谷にオープンしました。自家焙煎のコーヒーと手作りケーキをどうぞ。';
    const title = plan(prompt).scenes[0]!;
    expect(title).toMatchObject({ kind: 'title', title: '新しいカフェが渋谷にオープンしました', icon: 'coffee' });
    // The cup is drawn, not written: every text on screen is still the user's, and both engines draw the cup.
    const spec = { prompt, instructions: null, durationSeconds: null, assets: [], width: 1080, height: 1920 };
    const html = getEngine('hyperframes').composeOffline(spec);
    const lottie = getEngine('lottie').composeOffline(spec);
    const shown = [...hyperframesTexts(html).texts, ...lottieTexts(lottie).texts].map((t) => t.text);
    expect(shown.length).toBeGreaterThan(0);
    // (Lottie's lines of a block come joined with spaces.)
    for (const text of shown) expect(prompt).toContain(text.replace(/\s+/g, ''));
    expect(html).toContain('<div class="itile" id="s0-icon"');
    expect(lottie).toContain('"nm":"icon coffee"');
    expect(plan('Fresh coffee delivered to your door every morning').scenes[0]).toMatchObject({ icon: 'coffee' });
    expect(plan('Our bakery opens a second shop downtown').scenes[0]).toMatchObject({ icon: 'croissant' });
    // No word of the set, only a quality ("fast", "free"), or in a language without spaces a one-character word
    // inside another (산 "mountain" in 부산): no icon at all (not even `null`).
    for (const none of [
      'Quarterly results for Orbit. Revenue grew 42%.',
      'Fast and free for everyone',
      '四半期の業績',
      '부산 불꽃축제',
    ]) {
      expect(plan(none).scenes[0], none).toMatchObject({ kind: 'title' });
      expect(plan(none).scenes[0], none).not.toHaveProperty('icon');
    }
  });

  it('the same prompt gives the same storyboard; right-to-left scripts are marked', () => {
    expect(plan('A teal logo reveal for Orbit')).toEqual(plan('A teal logo reveal for Orbit'));
    expect(plan('مرحبا بالعالم. هذا فيديو قصير.').direction).toBe('rtl');
    expect(plan('שלום עולם').direction).toBe('rtl');
    expect(plan('新しいアプリのご紹介 🚀。').direction).toBe('ltr');
  });
});

describe('designed kinds: markers, comparisons, cuts (issue 43)', () => {
  const markers = (prompt: string) => sceneOf(prompt, 'steps').steps.map((s) => [s.marker, s.text]);

  it('step markers as each language writes them: spelled, number first, after a dash or a comma', () => {
    expect(
      markers('Returning is easy. Step one: log in. Step two: pick the item. Step three: print the label.'),
    ).toEqual([
      ['Step one', 'log in'],
      ['Step two', 'pick the item'],
      ['Step three', 'print the label'],
    ]);
    expect(
      markers('So geht es. 1. Schritt: Termin wählen. 2. Schritt: Formular ausfüllen. 3. Schritt: Gebühr zahlen.'),
    ).toEqual([
      ['1. Schritt', 'Termin wählen'],
      ['2. Schritt', 'Formular ausfüllen'],
      ['3. Schritt', 'Gebühr zahlen'],
    ]);
    expect(
      markers('Reciclar es fácil. Primer paso: enjuaga. Segundo paso: separa el papel. Tercer paso: lleva el vidrio.'),
    ).toEqual([
      ['Primer paso', 'enjuaga'],
      ['Segundo paso', 'separa el papel'],
      ['Tercer paso', 'lleva el vidrio'],
    ]);
    expect(
      markers('Как передать показания. Шаг 1 — сфотографируйте. Шаг 2 — откройте приложение. Шаг 3 — введите цифры.'),
    ).toEqual([
      ['Шаг 1', 'сфотографируйте'],
      ['Шаг 2', 'откройте приложение'],
      ['Шаг 3', 'введите цифры'],
    ]);
    expect(
      markers('분리수거 이렇게 하세요. 첫째, 라벨을 떼세요. 둘째, 캔은 헹궈 주세요. 셋째, 테이프를 제거해 주세요.').map(
        (m) => m[0],
      ),
    ).toEqual(['첫째', '둘째', '셋째']);
    // A bare number needs a full stop, a bracket or a colon: "1, 2 and 3" are no markers.
    expect(kinds('We ship to 1, 2 or 3 addresses. Pick yours.')).not.toContain('steps');
  });

  it('an enumeration that runs on ("etc.", "и пр.", "등") stays in its sentence', () => {
    for (const prompt of [
      'Incluye entrada a la catedral, museos, etc. y un café al final.',
      'Вакцинация, чипирование и пр. проводим по записи.',
      '스케일링, 충치 치료, 임플란트 등 모든 진료는 정상 운영합니다.',
    ])
      expect(
        kinds(`Hola. ${prompt}`).filter((k) => k === 'list' || k === 'features'),
        prompt,
      ).toEqual([]);
  });

  it("abbreviations never end a scene's text; a lower-case one that is also a word ends before a capital", () => {
    const texts = (prompt: string) =>
      plan(prompt).scenes.map((s) => ('text' in s ? s.text : 'title' in s ? s.title : null));
    expect(texts('Anträge bitte bis 28. Feb. an den 1. Vorsitzenden, Hrn. Maier. Danke!')).toContain(
      'Anträge bitte bis 28. Feb. an den 1. Vorsitzenden, Hrn. Maier',
    );
    expect(texts('Info e iscrizioni dalla sig.ra Conti. Vi aspettiamo!')).toContain(
      'Info e iscrizioni dalla sig.ra Conti',
    );
    expect(texts('Relax all day in the sun. Book your room today. Breakfast is included.')).toContain(
      'Relax all day in the sun',
    );
    expect(texts('Our new clinic opens with Dr. Alvarez. Walk-ins welcome. Parking is free.')).toContain(
      'Our new clinic opens with Dr. Alvarez',
    );
    // Initials go on to the next; an ordinal a comma leads, or an article with a month after it, is no step marker.
    expect(texts('Докладчик — Иванова Е. В. из НИИ. Вход свободный.')).toContain('Докладчик — Иванова Е. В. из НИИ');
    const choir = plan('Der Chor probt ab dem 3. Nov. im Gemeindehaus, Kirchweg 5, 1. OG. Neue Stimmen willkommen!');
    expect(choir.scenes.map((s) => s.kind)).toEqual(['title', 'statement']);
    expect(choir.scenes[0]).toMatchObject({
      title: 'Der Chor probt ab dem 3. Nov. im Gemeindehaus, Kirchweg 5',
      subtitle: '1. OG',
    });
    // A long sentence is shown in pieces of whole clauses: never one ending on an abbreviation.
    const museum = texts(
      'Die Stadtbibliothek zeigt ab Montag eine große Ausstellung über Buchdruck und Schriftkunst im 15. Jh., ' +
        'u. a. mit Originalen aus Mainz. Eintritt frei.',
    );
    expect(museum.some((t) => t?.endsWith('Jh.') || t?.endsWith(' Jh'))).toBe(false);
    expect(museum.join(' | ')).toContain('im 15. Jh., u. a. mit Originalen aus Mainz');
  });

  it('comparisons: another figure before the price, options in one sentence, one singled out in any words', () => {
    const train = sceneOf(
      'Treno o aereo? Frecciarossa: 2 ore e 59 minuti, da 29,90 €, da centro a centro. ' +
        'Volo: 1 ora e 10 minuti, da 45 €.',
      'comparison',
    );
    expect(train.options.map((o) => [o.name, o.figure])).toEqual([
      ['Frecciarossa', '2 ore e 59 minuti'],
      ['Volo', '1 ora e 10 minuti'],
    ]);
    const gym = sceneOf('力健身会员价格：次卡 49元，月卡 299元，季卡 799元，年卡 2599元，年卡最划算！', 'comparison');
    expect(gym.options.map((o) => o.figure)).toEqual(['49元', '299元', '799元', '2599元']);
    expect(gym.highlight).toBe(3);
    const wash = sceneOf(
      'Wash packages. Quick Rinse, $8: exterior wash. Deluxe, $15: adds hand wax. Ultimate, $24: everything. ' +
        'Most drivers pick Deluxe.',
      'comparison',
    );
    expect([wash.highlight, wash.badge]).toEqual([1, 'Most drivers pick']);
    const vet = sceneOf('건강검진 패키지 안내. 기본검진 8만원, 혈액검사. 정밀검진 18만원, 초음파 추가.', 'comparison');
    expect(vet.options.map((o) => o.figure)).toEqual(['8만원', '18만원']);
  });

  it('comparisons: "A, B and C", whole names found by the word telling them apart, an ask never shown', () => {
    const prompt =
      'Bike rental at the lake. Compare our three passes: City pass at $12 a day, Trail pass at $18 a day and ' +
      'Tour pass at $25 a day. Most riders pick Trail, so please make it stand out.';
    const rental = sceneOf(prompt, 'comparison');
    expect(rental.options.map((o) => [o.name, o.figure])).toEqual([
      ['City pass', '$12 a day'],
      ['Trail pass', '$18 a day'],
      ['Tour pass', '$25 a day'],
    ]);
    expect([rental.highlight, rental.badge]).toEqual([1, 'Most riders pick']);
    const planned = fullPlan(prompt);
    expect(planned.directions).toContain('so please make it stand out');
    expect(JSON.stringify(planned.storyboard.scenes)).not.toContain('stand out');
    // An ask between two clauses takes the sentence with it.
    const between = fullPlan(
      prompt.replace('so please make it stand out.', 'please make it stand out, it is the best value.'),
    );
    expect(between.storyboard.scenes.find((x) => x.kind === 'comparison')).toMatchObject({ highlight: 1, badge: null });
    expect(JSON.stringify(between.storyboard.scenes)).not.toContain('stand out');
    const ferry = sceneOf(
      'Traversée vers l’île : billet Standard à 35 €, billet Flex à 45 €. Mettez en avant le Flex, notre best-seller.',
      'comparison',
    );
    expect([ferry.options.map((o) => o.name), ferry.highlight, ferry.badge]).toEqual([
      ['billet Standard', 'billet Flex'],
      1,
      'notre best-seller',
    ]);
  });

  it('comparisons: what a name brings before its price is a feature, decimal commas, a question and its answer', () => {
    const cinema = sceneOf(
      'Our cinema tickets: Standard $12, Premium recliner $18, VIP with snacks included $25. ' +
        'Our recommendation: Premium.',
      'comparison',
    );
    expect(cinema.options.map((o) => [o.name, o.figure, o.features])).toEqual([
      ['Standard', '$12', []],
      ['Premium recliner', '$18', []],
      ['VIP', '$25', ['with snacks included']],
    ]);
    expect(cinema.highlight).toBe(1);
    const internet = sceneOf(
      'Unsere Tarife: Basic mit 50 Mbit/s für 24,99 € im Monat, Plus mit 250 Mbit/s für 34,99 € und ' +
        'Max mit 1000 Mbit/s für 49,99 €. Am beliebtesten ist Plus.',
      'comparison',
    );
    expect(internet.options.map((o) => [o.name, o.figure, o.features[0]])).toEqual([
      ['Basic', '24,99 € im Monat', 'mit 50 Mbit/s'],
      ['Plus', '34,99 €', 'mit 250 Mbit/s'],
      ['Max', '49,99 €', 'mit 1000 Mbit/s'],
    ]);
    expect(internet.highlight).toBe(1);
    // A comma inside a price does not end the option's clause; the first word of a name finds it.
    const delivery = sceneOf(
      'Nos options de livraison : Point relais à 2,90 €, Standard à domicile à 4,90 €, Express en 24 h à 9,90 €. ' +
        "L'option la plus choisie : Standard.",
      'comparison',
    );
    expect(delivery.options.map((o) => [o.name, o.figure, o.features])).toEqual([
      ['Point relais', '2,90 €', []],
      ['Standard à domicile', '4,90 €', []],
      ['Express', '9,90 €', ['en 24 h']],
    ]);
    expect(delivery.highlight).toBe(1);
    const english = sceneOf(
      'ライトプラン月4回 8,800円、スタンダードプラン月8回 15,400円、マンツーマンプラン 22,000円。一番人気はスタンダードプランです。',
      'comparison',
    );
    expect(english.options.map((o) => [o.name, o.features])).toEqual([
      ['ライトプラン', ['月4回']],
      ['スタンダードプラン', ['月8回']],
      ['マンツーマンプラン', []],
    ]);
    expect(english.highlight).toBe(1);
    const bikes = sceneOf(
      'Mezza giornata: 25 €. Giornata intera: 40 €. Weekend: 70 €. Il più richiesto? Giornata intera!',
      'comparison',
    );
    expect([bikes.highlight, bikes.badge]).toEqual([1, 'più richiesto']);
    const beans = sceneOf(
      '원두 구독 플랜 비교. 라이트 월 15,900원 vs 레귤러 월 29,900원, 추천은 레귤러!',
      'comparison',
    );
    expect([beans.options.length, beans.highlight]).toEqual([2, 1]);
  });

  it('a request after the content ("Mach daraus bitte einen kurzen, freundlichen Clip.") is a direction', () => {
    const planned = fullPlan(
      'Unser Hofladen ist jetzt täglich geöffnet. Mach daraus bitte einen kurzen, freundlichen Clip.',
    );
    expect(planned.directions).toContain('Mach daraus bitte einen kurzen, freundlichen Clip');
    expect(JSON.stringify(planned.storyboard.scenes)).not.toContain('Clip');
  });

  it('an Arabic request joined to its subject ("فيديو قصير لقاعة…") is a direction, the subject the title', () => {
    const planned = fullPlan(
      'نريد فيديو قصير لقاعة الأفراح لدينا. باقات الزفاف: الفضية بـ 15,000 ريال، الذهبية بـ 25,000 ريال.',
    );
    expect(planned.storyboard.scenes[0]).toMatchObject({ kind: 'title', title: 'لقاعة الأفراح لدينا' });
    expect(planned.directions).toContain('نريد فيديو قصير');
  });

  it('features: the verb after the list (Turkish, Korean), a thing before whom or what kind', () => {
    const flat = sceneOf(
      'Apart otelimizde her dairede mutfak, çamaşır makinesi, klima ve ücretsiz Wi-Fi bulunuyor.',
      'features',
    );
    expect(flat.items.map((i) => [i.text, i.icon])).toEqual([
      ['mutfak', 'cooking-pot'],
      ['çamaşır makinesi', 'washing-machine'],
      ['klima', 'snowflake'],
      ['ücretsiz Wi-Fi', 'wifi'],
    ]);
    expect(sceneOf('Apart otelimizde her dairede mutfak, klima ve Wi-Fi bulunuyor.', 'title').title).toBe(
      'Apart otelimizde her dairede',
    );
    // Under what has them, without the verb linking them ("vem com"); one that opens the sentence stays.
    const car = fullPlan('O novo Urbano EV vem com carregamento rápido, câmera de ré, teto solar e garantia de 8 anos.')
      .storyboard.scenes;
    expect(car.map((x) => x.kind)).toEqual(['title', 'features']);
    expect(car[0]).toMatchObject({ title: 'O novo Urbano EV' });
    const cafe = sceneOf('저희 카페는 넓은 운동장, 수제 간식, 무료 주차를 제공합니다.', 'features');
    expect(cafe.items.map((i) => i.text)).toEqual(['넓은 운동장', '수제 간식', '무료 주차를']);
    const icons = (prompt: string) => sceneOf(prompt, 'features').items.map((i) => i.icon);
    expect(
      icons('Incluye tabla y neopreno, clases en la playa, duchas de agua caliente y fotos de tu sesión.'),
    ).toEqual(['check', 'waves', 'shower-head', 'camera']);
    expect(icons('منتجعنا يضم: شاطئ خاص، مسبح للأطفال، مطعم، وواي فاي مجاني.')[1]).toBe('waves-ladder');
    // A word inside a longer term is the term's: "parque infantil" is a playground (people), not a park (a tree).
    expect(icons('O condomínio tem piscina aquecida, parque infantil, academia e portaria 24 horas.')).toEqual([
      'waves-ladder',
      'users',
      'dumbbell',
      'bell',
    ]);
  });

  it('a web address has a real ending and a name: not "sig.ra" or "1.er"', () => {
    expect(kinds('Salida cada 1.er domingo de mes desde la Pza. de Zocodover. Son dos horas de paseo.')).not.toContain(
      'cta',
    );
    expect(sceneOf('Corso di ceramica. Info e iscrizioni su ceramica-argilla.it, vi aspettiamo.', 'cta').detail).toBe(
      'ceramica-argilla.it',
    );
  });

  it('features: a sentence that is only a list, items that say a little more, what members get', () => {
    const icons = (prompt: string) => sceneOf(prompt, 'features').items.map((i) => i.icon);
    expect(icons('The new pool is open! Heated pool, free parking, a sauna and a sunny terrace.')).toEqual([
      'waves-ladder',
      'square-parking',
      'bath',
      'sun',
    ]);
    expect(
      icons(
        'Al centro sportivo trovi: piscina aperta 24 ore su 24, docce calde, parcheggio custodito e una lavanderia.',
      ),
    ).toEqual(['waves-ladder', 'shower-head', 'square-parking', 'washing-machine']);
    expect(icons('Members get fast Wi-Fi, bottomless coffee and secure bike storage.')).toEqual([
      'wifi',
      'coffee',
      'bike',
    ]);
    // French words for every icon of the set; "prix accessibles" are affordable, not step-free.
    expect(
      icons(
        'Le gîte propose : lits bébé et chaises hautes, une ludothèque avec jeux de société, une consigne à bagages ' +
          'et des prix accessibles.',
      ),
    ).toEqual(['baby', 'dices', 'luggage', 'banknote']);
    // Items parted by semicolons keep their own "and".
    expect(
      sceneOf(
        'Zeltplatz am See: Stromanschluss; Brötchenservice; Duschen und Waschmaschinen im Sanitärhaus.',
        'features',
      ).items.map((i) => i.text),
    ).toEqual(['Stromanschluss', 'Brötchenservice', 'Duschen und Waschmaschinen im Sanitärhaus']);
  });

  it('a timed line naming another time ("öğle yemeği": lunch) is one item; dotted times; "Passaggio 1"', () => {
    expect(timeline('Kamp programı:\n08.00 – Kahvaltı\n12.30 – Göl kenarında öğle yemeği\n16.00 – Kano')).toEqual([
      ['08.00', 'Kahvaltı'],
      ['12.30', 'Göl kenarında öğle yemeği'],
      ['16.00', 'Kano'],
    ]);
    expect(
      sceneOf(
        'Come iscriversi:\nPassaggio 1 – Compila il modulo\nPassaggio 2 – Paga la quota\nPassaggio 3 – Vieni in sede',
        'steps',
      ).steps.map((x) => x.marker),
    ).toEqual(['Passaggio 1', 'Passaggio 2', 'Passaggio 3']);
  });

  it('a sentence that only asks for the video is a direction, in any language: the next one is the title', () => {
    for (const [prompt, title] of [
      ['Make a 15-second video. Matcha latte is back.', 'Matcha latte is back'],
      ['15秒の動画を作ってください。抹茶ラテが新登場。', '抹茶ラテが新登場'],
      ['10초 영상 만들어 주세요. 말차 라떼 출시.', '말차 라떼 출시'],
    ]) {
      const planned = fullPlan(prompt!);
      expect(planned.storyboard.scenes[0]).toMatchObject({ kind: 'title', title });
      expect(planned.directions.join(' ')).toContain(prompt!.split(/[.。]/u)[0]);
      expect(planned.storyboard.durationSeconds).toBe(15 - (prompt!.startsWith('10') ? 5 : 0));
    }
    expect(sceneOf('Video games for kids. Play every day.', 'title').title).toBe('Video games for kids');
  });

  it('timelines in one sentence: a dash after each time, quarters, months after 年, a heading ending on a year', () => {
    expect(timeline('Полумарафон, программа дня: 7:00 — выдача пакетов, 8:30 — разминка, 9:00 — старт.')).toEqual([
      ['7:00', 'выдача пакетов'],
      ['8:30', 'разминка'],
      ['9:00', 'старт'],
    ]);
    expect(
      timeline('Roadmap do app para 2027: Q1 2027 pagamento por Pix, Q2 2027 fidelidade, Q3 2027 bicicletas.'),
    ).toEqual([
      ['Q1 2027', 'pagamento por Pix'],
      ['Q2 2027', 'fidelidade'],
      ['Q3 2027', 'bicicletas'],
    ]);
    expect(
      timeline('改造计划：2027年3月开始施工，2027年6月儿童阅览室开放，2027年9月全面开放。').map((i) => i[0]),
    ).toEqual(['2027年3月', '2027年6月', '2027年9月']);
    expect(
      timeline(
        'Nuestra historia: en 1998 plantamos los olivos, en 2006 abrimos la almazara y en 2024 la tienda online.',
      ),
    ).toEqual([
      ['1998', 'plantamos los olivos'],
      ['2006', 'abrimos la almazara'],
      ['2024', 'la tienda online'],
    ]);
    expect(
      timeline('Neue Zeiten: Montag bis Freitag 7–18 Uhr, Samstag 8–14 Uhr und am ersten Sonntag im Monat 10–13 Uhr.'),
    ).toEqual([
      ['7–18 Uhr', 'Montag bis Freitag'],
      ['8–14 Uhr', 'Samstag'],
      ['10–13 Uhr', 'am ersten Sonntag im Monat'],
    ]);
  });

  it('step markers after a semicolon, and written "1.º passo"', () => {
    expect(markers('预约很简单：第一步，选择服务；第二步，预约时间；第三步，按时到店。')).toEqual([
      ['第一步', '选择服务'],
      ['第二步', '预约时间'],
      ['第三步', '按时到店'],
    ]);
    expect(markers('Como pedir o cartão: 1.º passo – preencha o formulário. 2.º passo – anexe uma foto.')).toEqual([
      ['1.º passo', 'preencha o formulário'],
      ['2.º passo', 'anexe uma foto'],
    ]);
  });

  it('timelines: ranges of times, a label holding the time, years with a suffix or in other digits', () => {
    expect(
      timeline('Winter hours. Monday to Friday, 9 am to 6 pm. Saturday, 10 am to 4 pm. Sunday, noon to 5 pm.'),
    ).toEqual([
      ['9 am to 6 pm', 'Monday to Friday'],
      ['10 am to 4 pm', 'Saturday'],
      ['noon to 5 pm', 'Sunday'],
    ]);
    expect(
      timeline('Our roadmap. Early 2027: a private beta. Mid 2027: the public launch. Late 2027: the tablet app.'),
    ).toEqual([
      ['Early 2027', 'a private beta'],
      ['Mid 2027', 'the public launch'],
      ['Late 2027', 'the tablet app'],
    ]);
    expect(timeline('当社の歩み。1990年 大阪で創業。2005年 東京に進出。2020年 海外へ展開。')).toEqual([
      ['1990年', '大阪で創業'],
      ['2005年', '東京に進出'],
      ['2020年', '海外へ展開'],
    ]);
    expect(timeline('قصتنا. ١٩٩٠: البداية في دبي. ٢٠٠٥: الفرع الثاني. ٢٠٢٠: متجر على الإنترنت.')).toEqual([
      ['١٩٩٠', 'البداية في دبي'],
      ['٢٠٠٥', 'الفرع الثاني'],
      ['٢٠٢٠', 'متجر على الإنترنت'],
    ]);
    // A title ending in a closing quote and a full stop ends before a year.
    expect(
      timeline('История стадиона «Волга». 1950 — первый матч. 1980 — новая трибуна. 2020 — крыша над полем.')[0],
    ).toEqual(['1950', 'первый матч']);
  });

  it('timelines: hours after "ore", days and months, a heading before the first time, parts between semicolons', () => {
    expect(timeline('Open day in cantiere: ore 9 accoglienza, ore 10.30 visita guidata, ore 13 pranzo.')).toEqual([
      ['ore 9', 'accoglienza'],
      ['ore 10.30', 'visita guidata'],
      ['ore 13', 'pranzo'],
    ]);
    expect(timeline('Mudanças na loja: 02/06 inventário, 09/06 pintura, 16/06 reabertura.')).toEqual([
      ['02/06', 'inventário'],
      ['09/06', 'pintura'],
      ['16/06', 'reabertura'],
    ]);
    // "24/7" is no date.
    expect(kinds('Support 24/7: chat, phone and email.')).not.toContain('timeline');
    expect(timeline('图书馆活动：6月2日读书会，6月9日手工课，6月16日电影夜。').map((i) => i[0])).toEqual([
      '6月2日',
      '6月9日',
      '6月16日',
    ]);
    // A part of the day before a range; a clock word right after the figure in a language without spaces.
    expect(timeline('कक्षाएँ: सुबह 6 से 8 बजे – योग, शाम 5 से 7 बजे – ज़ुम्बा, रात 8 से 9 बजे – ध्यान।')[0]).toEqual([
      'सुबह 6 से 8 बजे',
      'योग',
    ]);
    expect(timeline('가을 음악회 일정 18:00 입장 / 18:30 1부 공연 / 20:00 시상식')).toEqual([
      ['18:00', '입장'],
      ['18:30', '1부 공연'],
      ['20:00', '시상식'],
    ]);
    expect(sceneOf('가을 음악회 일정 18:00 입장 / 18:30 1부 공연 / 20:00 시상식', 'title').title).toBe(
      '가을 음악회 일정',
    );
    expect(
      timeline(
        'Horário da biblioteca: de segunda a quinta, das 8h às 20h; à sexta, das 8h às 17h; ao sábado, das 9h às 12h.',
      ),
    ).toEqual([
      ['8h às 20h', 'de segunda a quinta'],
      ['8h às 17h', 'à sexta'],
      ['9h às 12h', 'ao sábado'],
    ]);
    expect(timeline('Il nostro piano: Aprile: sito nuovo. Giugno: app. Ottobre: negozio in centro.')).toEqual([
      ['Aprile', 'sito nuovo'],
      ['Giugno', 'app'],
      ['Ottobre', 'negozio in centro'],
    ]);
    expect(timeline('文化祭のスケジュール。午前10時 開場、午後1時半 演劇、午後3時 閉場。')[1]).toEqual([
      '午後1時半',
      '演劇',
    ]);
    expect(timeline('برنامج الأمسية: ٧:٠٠ م الاستقبال، ٨:٠٠ م العرض، ٩:٣٠ م العشاء.')[0]).toEqual([
      '٧:٠٠ م',
      'الاستقبال',
    ]);
    expect(timeline('Öffnungszeiten: Mo–Do 8–18 Uhr, Fr 8–14 Uhr, Sa und So 10–12 Uhr.')[2]).toEqual([
      '10–12 Uhr',
      'Sa und So',
    ]);
  });

  it('features after a dash or a preposition before the first item, not one inside an item', () => {
    const items = (prompt: string) => sceneOf(prompt, 'features').items.map((i) => [i.text, i.icon]);
    expect(items('Loft 21 in Lisbon – free wifi, a full kitchen, bike storage and a heated pool.')).toEqual([
      ['Free wifi', 'wifi'],
      ['A full kitchen', 'cooking-pot'],
      ['Bike storage', 'bike'],
      ['A heated pool', 'waves-ladder'],
    ]);
    expect(
      sceneOf('Loft 21 in Lisbon – free wifi, a full kitchen, bike storage and a heated pool.', 'title').title,
    ).toBe('Loft 21 in Lisbon');
    const gite = fullPlan('Le gîte des Vignes vous accueille avec piscine, Wi-Fi, parking et cuisine équipée.')
      .storyboard.scenes;
    expect(gite[0]).toMatchObject({ kind: 'title', title: 'Le gîte des Vignes vous accueille' });
    expect(gite[1]).toMatchObject({ kind: 'features' });
    // "con" inside the third item is no lead-in.
    const club = sceneOf(
      'Abrimos el club. Piscina cubierta, pistas de tenis, sala con máquinas y parking gratuito.',
      'features',
    );
    expect(club.heading).toBeNull();
    expect(club.items.map((i) => i.text)).toContain('Sala con máquinas');
  });

  it('comparisons: a praising feature is the badge, names holding a figure, a price "за 3 часа", a Korean "이고"', () => {
    expect(
      shown('Nos formules : Essai : 15 €. Mensuel : 39 €. Annuel : 390 €, notre formule la plus populaire.'),
    ).toEqual({
      options: [
        ['Essai', '15 €', []],
        ['Mensuel', '39 €', []],
        ['Annuel', '390 €', []],
      ],
      highlight: 2,
      badge: 'notre formule la plus populaire',
    });
    expect(shown('料金：お試し 1,000円、月額 5,000円（一番人気！）、年額 50,000円').highlight).toBe(1);
    expect(shown('料金：お試し 1,000円、月額 5,000円（一番人気！）、年額 50,000円').badge).toBe('一番人気！');
    expect(
      shown(
        'Aulas de natação: Pacote 1x por semana R$ 150, Pacote 2x por semana R$ 260 e Pacote Livre R$ 340.',
      ).options.map((o) => o[0]),
    ).toEqual(['Pacote 1x por semana', 'Pacote 2x por semana', 'Pacote Livre']);
    expect(shown('Аренда зала: «Мини» — 900 ₽ за час, «Макси» — 2 500 ₽ за 3 часа, «День» — 6 000 ₽.').options).toEqual(
      [
        ['«Мини»', '900 ₽ за час', []],
        ['«Макси»', '2 500 ₽ за 3 часа', []],
        ['«День»', '6 000 ₽', []],
      ],
    );
    const korean = shown('세차 요금: 기본 2만원, 고급 4만원, 전체 7만원이고 제일 인기 있는 건 고급이에요!');
    expect(korean.options.map((o) => o[0])).toEqual(['기본', '고급', '전체']);
    expect(korean.highlight).toBe(1);
  });

  it('comparisons in one sentence: a price per unit, a feature after it, "A 9 € et B 12 €", praise after them', () => {
    expect(
      shown('Our bike rentals: City at $12/day with a basket, Electric at $30/day with two batteries (best seller).'),
    ).toEqual({
      options: [
        ['City', '$12/day', ['with a basket']],
        ['Electric', '$30/day', ['with two batteries']],
      ],
      highlight: 1,
      badge: 'best seller',
    });
    expect(shown('Nos paniers : Petit à 15 € la semaine, Moyen à 22 € et Grand à 30 €, avec des œufs frais.')).toEqual({
      options: [
        ['Petit', '15 € la semaine', []],
        ['Moyen', '22 €', []],
        ['Grand', '30 €', ['avec des œufs frais']],
      ],
      highlight: null,
      badge: null,
    });
    const spanish = shown('Clases de yoga: Suave por 30 € al mes, Activo por 45 € al mes con esterilla incluida.');
    expect(spanish.options[1]).toEqual(['Activo', '45 € al mes', ['con esterilla incluida']]);
    const praised = shown(
      'Наши абонементы: «Утро» — 2 000 ₽, «День» — 3 000 ₽, «Безлимит» — 5 000 ₽, самый популярный.',
    );
    expect([praised.highlight, praised.badge]).toEqual([2, 'самый популярный']);
  });

  it('comparisons with the price in brackets, a remark after a dash or between options, a part after them', () => {
    expect(
      shown(
        'Our boat tours — Harbour Loop (1 hour, $18 per adult), Sunset Cruise (2 hours, $35 per adult) ' +
          '– our favourite – and Island Day (6 hours, $90 per adult).',
      ),
    ).toEqual({
      options: [
        ['Harbour Loop', '$18 per adult', ['1 hour']],
        ['Sunset Cruise', '$35 per adult', ['2 hours']],
        ['Island Day', '$90 per adult', ['6 hours']],
      ],
      highlight: 1,
      badge: 'our favourite',
    });
    // A mark inside brackets ends no sentence when it goes on; praise between options is the one before's.
    const spanish = shown(
      'Bonos de la piscina: Bono 10 baños por 40 € (¡ahorra más!) y Bono anual por 300 €, el más popular, ' +
        'y Bono verano por 90 €.',
    );
    expect(spanish.options.map((o) => o[0])).toEqual(['Bono 10 baños', 'Bono anual', 'Bono verano']);
    expect([spanish.highlight, spanish.badge]).toEqual([1, 'el más popular']);
    const german = shown(
      'Unsere Kurse: Einsteiger für 49 € – unser Bestseller –, Fortgeschrittene für 59 € und Profis für 79 €.',
    );
    expect([german.options[0], german.highlight, german.badge]).toEqual([
      ['Einsteiger', '49 €', []],
      0,
      'unser Bestseller',
    ]);
    // A remark after the last price naming another option raises that one.
    const dutch = shown(
      'Onze pakketten: Basis voor € 15, Plus voor € 25 en Compleet voor € 40 – Plus wordt het meest geboekt.',
    );
    expect(dutch.options.map((o) => o[2])).toEqual([[], [], []]);
    expect([dutch.highlight, dutch.badge]).toEqual([1, 'wordt het meest geboekt']);
    // The badge is the whole side of the name when the praise alone would leave words out; a sentence saying more
    // than fits a badge stays a scene, the option raised.
    const pool = shown('Абонементы: Утро — 2 900 ₽, Вечер — 3 900 ₽. Чаще всего гости выбирают Вечер.');
    expect([pool.highlight, pool.badge]).toEqual([1, 'Чаще всего гости выбирают']);
    const gym = fullPlan('Piani: Base € 30, Plus € 45. Il più flessibile? Il Plus, consigliato dai nostri istruttori.');
    expect(gym.storyboard.scenes.find((x) => x.kind === 'comparison')).toMatchObject({ highlight: 1, badge: null });
    // A last part about all the options is a scene of its own after them.
    const chinese = fullPlan('瑜伽馆会员：月卡399元，季卡999元，年卡3299元，全部可以免费使用淋浴间。').storyboard
      .scenes;
    expect(chinese.map((x) => x.kind).slice(-2)).toEqual(['comparison', 'statement']);
    // Times after bullets are a timeline, not a list.
    expect(
      timeline(
        'Tag der Vereine am Samstag:\n– 10:00 Uhr: Eröffnung\n– 11:30 Uhr: Vorführungen\n– 14:00 Uhr: Mitmachaktionen',
      ),
    ).toEqual([
      ['10:00 Uhr', 'Eröffnung'],
      ['11:30 Uhr', 'Vorführungen'],
      ['14:00 Uhr', 'Mitmachaktionen'],
    ]);
  });

  it('timelines of dates with a month\'s name; features after "you will find" and after a Japanese topic', () => {
    expect(
      timeline('Our garden year: 3 March – seed swap; 21 June – open gardens; 4 October – harvest supper.'),
    ).toEqual([
      ['3 March', 'seed swap'],
      ['21 June', 'open gardens'],
      ['4 October', 'harvest supper'],
    ]);
    expect(
      timeline('Vereinsjahr: 12. Januar – Neujahrsempfang; 8. Mai – Sommerfest; 2. Oktober – Herbstlauf.'),
    ).toEqual([
      ['12. Januar', 'Neujahrsempfang'],
      ['8. Mai', 'Sommerfest'],
      ['2. Oktober', 'Herbstlauf'],
    ]);
    expect(timeline('Launch plan: March 3 beta for friends, April 14 public beta, June 1st launch day.')[2]).toEqual([
      'June 1st',
      'launch day',
    ]);
    // A day's name before a range of hours is no date: the hours are the time.
    expect(timeline('Horaires: lundi 9–12 h, mardi 14–18 h, samedi 10–13 h.').map((i) => i[0])).toEqual([
      '9–12 h',
      '14–18 h',
      '10–13 h',
    ]);
    const features = (prompt: string) => sceneOf(prompt, 'features').items.map((i) => i.text);
    expect(features('At the Lakeside Lodge you will find a sauna, free Wi-Fi, a boat dock and bike hire.')).toEqual([
      'a sauna',
      'free Wi-Fi',
      'a boat dock',
      'bike hire',
    ]);
    expect(features('キャンプ場には、温水シャワー、無料Wi-Fi、売店、ドッグランがあります。')).toEqual([
      '温水シャワー',
      '無料Wi-Fi',
      '売店',
      'ドッグラン',
    ]);
  });

  it('"in 3 passi – Passo 1: …" are steps, "①…→②…" too; an example list ("e.g. …") stays in its sentence', () => {
    expect(
      markers('Prenota in 3 passi – Passo 1: scegli la data. Passo 2: scegli la sala. Passo 3: paga online.'),
    ).toEqual([
      ['Passo 1', 'scegli la data'],
      ['Passo 2', 'scegli la sala'],
      ['Passo 3', 'paga online'],
    ]);
    expect(markers('申し込みの流れ。①フォームに入力→②メールを確認→③当日来店').map((m) => m[1])).toEqual([
      'フォームに入力',
      'メールを確認',
      '当日来店',
    ]);
    for (const sentence of [
      'Bring your documents, e.g. passport, visa or residence card.',
      'Traiga su ropa de deporte, p. ej. zapatillas, toalla y agua.',
      'Bitte mitbringen, z. B. Ausweis, Rezept und Versichertenkarte.',
    ])
      expect(kinds(`Welcome. ${sentence}`)).not.toContain('list');
  });

  it('a request ending or opening with its verb where verbs come last is a direction', () => {
    for (const [prompt, title] of [
      ['パン屋の新商品紹介動画をお願いします。', 'パン屋の新商品'],
      ['做一个20秒的咖啡店开业视频：欢迎光临！', '咖啡店开业'],
      ['أبغى فيديو قصير لمطعم البحر: أسماك طازجة كل يوم.', 'لمطعم البحر'],
      ['Faz um vídeo curto com as novidades da nossa padaria.', 'As novidades da nossa padaria'],
      // Several request verbs in a row; a request addressed to us.
      ['帮我们做个游泳馆暑期班的宣传视频：欢迎报名！', '游泳馆暑期班'],
      ['Macht uns bitte ein kurzes Video über die Sommerkurse der Musikschule.', 'Die Sommerkurse der Musikschule'],
    ])
      expect(plan(prompt).scenes[0], prompt).toMatchObject({ kind: 'title', title });
    expect(fullPlan('做一个20秒的咖啡店开业视频：欢迎光临！').directions).toEqual(
      expect.arrayContaining(['做一个20秒的', '视频']),
    );
  });

  it('a greeting before asking for the video, polite requests and a heading asking what to show are directions', () => {
    for (const [prompt, greeting, title] of [
      ['Moin! Wir hätten gerne ein kurzes Video über unseren Hofladen in Husum.', 'Moin!', 'Unseren Hofladen in Husum'],
      [
        'Bonsoir, j’aimerais une vidéo pour notre cave à vins. Dégustation tous les vendredis.',
        'Bonsoir',
        'Notre cave',
      ],
      ['Buenas tardes. Me gustaría un vídeo sobre la feria del libro de Cáceres.', 'Buenas tardes', 'La feria'],
      ['Здравствуйте! Сделайте видео о новой пекарне на Садовой.', 'Здравствуйте!', 'пекарне на Садовой'],
      ['こんにちは。駅前のパン屋の紹介動画をお願いします。', 'こんにちは', 'パン屋'],
    ] as const) {
      const p = fullPlan(prompt);
      expect(p.directions, prompt).toContain(greeting);
      expect(JSON.stringify(p.storyboard.scenes), prompt).not.toContain(greeting.replace(/[!,.。]$/u, ''));
      expect(p.storyboard.scenes[0], prompt).toMatchObject({ kind: 'title', title: expect.stringContaining(title) });
    }
    // A greeting in the video's own words is shown: the viewer is greeted.
    expect(plan('Здравствуйте! Новая пекарня на Садовой открыта каждый день.').scenes[0]).toMatchObject({
      kind: 'title',
      title: 'Здравствуйте!',
    });
    // A list's heading that only asks what to show is a direction too.
    for (const prompt of [
      'Video für die Jugendherberge Lindau. Bitte zeigen: Seeblick, Frühstücksbuffet, Fahrradverleih.',
      'Vídeo da Pousada Mar Azul. Quero destacar: piscina, café da manhã, estacionamento grátis.',
    ]) {
      const p = fullPlan(prompt);
      const features = p.storyboard.scenes.find((x) => x.kind === 'features');
      expect(features, prompt).toMatchObject({ heading: null });
      expect(
        p.directions.some((d) => /zeigen|destacar/u.test(d)),
        prompt,
      ).toBe(true);
    }
    const recycling = fullPlan(
      'So funktioniert der Wertstoffhof. Bitte als kurzes Erklärvideo:\nErstens: Müll trennen\n' +
        'Zweitens: Karte scannen\nDrittens: Container wählen',
    );
    expect(recycling.storyboard.scenes.find((x) => x.kind === 'steps')).toMatchObject({ heading: null });
    // A word that only starts like a greeting is none.
    expect(plan('Hilfe für Senioren: Einkaufsservice in Bremen.').scenes[0]).toMatchObject({
      title: 'Hilfe für Senioren',
    });
  });
});

describe('length', () => {
  it('reads a length next to what names the video, in any language; a length the video talks about is not one', () => {
    expect(statedDurationSeconds('A 10-second explainer')).toBe(10);
    expect(statedDurationSeconds('15 s teaser')).toBe(15);
    expect(statedDurationSeconds('a 15s teaser')).toBe(15);
    expect(statedDurationSeconds('half a minute promo')).toBe(30);
    expect(statedDurationSeconds('a one minute recap')).toBe(60);
    expect(statedDurationSeconds('Un anuncio de 8 segundos para una panadería')).toBe(8);
    expect(statedDurationSeconds('Ein 10-Sekunden-Video für die Bäckerei')).toBe(10);
    expect(statedDurationSeconds('Erstelle ein 8 Sekunden langes Video')).toBe(8);
    expect(statedDurationSeconds('パン工房の8秒広告')).toBe(8);
    expect(statedDurationSeconds('إعلان مدته ٨ ثوانٍ لمخبز السنابل')).toBe(8);
    expect(statedDurationSeconds('Видео на 15 секунд о фестивале')).toBe(15);
    expect(statedDurationSeconds('A 4-second hello from the lighthouse')).toBe(4);
    expect(statedDurationSeconds('an 80s vibe')).toBeNull();
    expect(statedDurationSeconds('a launch teaser')).toBeNull();
    // What the video says, not how long it lasts.
    expect(statedDurationSeconds('How to reset it: 1. Unplug it. 2. Wait 30 seconds.')).toBeNull();
    expect(statedDurationSeconds('Lemon pasta in 15 minutes.')).toBeNull();
    expect(statedDurationSeconds('10分でできる親子丼。')).toBeNull();
    // A one-letter unit follows digits only: "с" is also "with".
    expect(statedDurationSeconds('Индивидуальный — занятия один на один с преподавателем.')).toBeNull();
    expect(statedDurationSeconds('Видео на 15 с о фестивале')).toBe(15);
  });

  it('a requested length wins, then a stated one (clamped to 1–60 s), else the natural one', () => {
    expect(resolveDuration(7, 'A 10-second clip')).toBe(7);
    expect(resolveDuration(undefined, 'A 10-second clip')).toBe(10);
    expect(resolveDuration(undefined, 'a 2 minute film')).toBe(60);
    expect(resolveDuration(undefined, 'a clip')).toBeNull();
    expect(plan('A 10-second clip about cats. They nap.').durationSeconds).toBe(10);
    expect(plan('Cats. They nap. They purr.', 7).durationSeconds).toBe(7);
    expect(plan('Cats. They nap. They purr.').durationSeconds).toBe(8);
  });

  it('scenes tile the length exactly', () => {
    for (const d of [1, 3, 7.5, 60]) {
      const s = plan(
        'Cats. They nap, eat and purr. 5, 4, 3, 2, 1, go! "Meow," says Tom. How to adopt: 1. Visit. 2. Choose. ' +
          'Adopt one at cats.org',
        d,
      );
      expect(s.scenes[0]!.start).toBe(0);
      for (let i = 1; i < s.scenes.length; i++)
        expect(s.scenes[i]!.start).toBeCloseTo(s.scenes[i - 1]!.start + s.scenes[i - 1]!.duration, 6);
      const last = s.scenes.at(-1)!;
      expect(last.start + last.duration).toBeCloseTo(d, 6);
    }
  });
});

describe('look', () => {
  it('honours named colours, styles and fonts', () => {
    expect(plan('A promo with teal accents').look.palette.accent).not.toBe(plan('A promo').look.palette.accent);
    expect(plan('A dark promo in teal').look.palette.accent).toBe(NAMED_COLOURS.teal);
    expect(plan('A sepia memory').look).toMatchObject({ name: 'sepia', theme: 'light', font: 'serif' });
    expect(plan('A neon night').look).toMatchObject({ name: 'neon', theme: 'dark', decoration: 'glow' });
    expect(plan('A minimal launch').look).toMatchObject({ decoration: 'none', motion: 'calm' });
    expect(plan('An elegant serif launch').look.font).toBe('serif');
    expect(plan('A launch for developers').look.font).toBe('mono');
    expect(plan('A dark launch').look.theme).toBe('dark');
    expect(plan('A bright launch').look.theme).toBe('light');
    expect(plan('A launch', null, 'Use a navy background').look.palette.background).toBe(NAMED_COLOURS.navy);
  });

  it('different prompts get different looks', () => {
    const looks = new Set(
      ['Cats', 'Dogs', 'Birds', 'Fish', 'Mice', 'Cows', 'Pigs', 'Owls'].map((p) => plan(p).look.name),
    );
    expect(looks.size).toBeGreaterThanOrEqual(3);
  });
});
