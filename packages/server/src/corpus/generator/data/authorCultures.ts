/**
 * Name pools for the fictional authors, by culture, with the eras each culture writes in and
 * the faith traditions its authors may write from. Surnames are invented (compounds of the
 * `parts`, or invented places) wherever the culture allows it, so a generated author is never a
 * real person; the generator also refuses any name in the known-author table.
 *
 * Formats: {given}, {given2} (another given name of the same gender, e.g. a father's),
 * {family}, {place}, {initial} (a middle initial), {title}. A culture may list several
 * formats; one is drawn per author.
 */
export interface CultureNames {
  /** Share of this culture among the authors of each era (relative weights). */
  eras: Partial<Record<string, number>>;
  /** Faith traditions its authors may write from (relative weights). */
  faiths?: Partial<Record<string, number>>;
  /** Share of women among its authors in each era it writes in (default 0.5). */
  women?: Partial<Record<string, number>>;
  male: string[];
  female: string[];
  /** Family names; or invented ones from `familyParts` (first part + second part). */
  family?: string[];
  familyParts?: [string[], string[]];
  /** Feminine family names: suffix replacements applied in order ('ov' -> 'ova'). */
  feminine?: Array<[string, string]>;
  places?: string[];
  placeParts?: [string[], string[]];
  formats: { male: string[]; female: string[] };
  titles?: { male: string[]; female: string[] };
}

const englishParts: [string[], string[]] = [
  ['Ash', 'Marrow', 'Fen', 'Thorn', 'Brack', 'Holl', 'Wyn', 'Gar', 'Ard', 'Brook', 'Ell', 'Cald', 'Har', 'Lang', 'Merri', 'Old', 'Rad', 'Shel', 'Stan', 'Wester', 'Whit', 'Cor', 'Dun', 'Kirk', 'Lin', 'Mor', 'Pen', 'Rook', 'Sel', 'Wil', 'Hay', 'Clay', 'Bram', 'Thistle', 'Elm', 'Haw'],
  ['grove', 'wright', 'by', 'more', 'ley', 'worth', 'ford', 'ton', 'well', 'wood', 'field', 'ham', 'stone', 'mere', 'wick', 'combe', 'hurst', 'dale', 'brook', 'cote', 'gate', 'shaw', 'thorpe', 'ridge', 'low', 'bourne'],
];
const englishPlaces: [string[], string[]] = [
  ['Carrow', 'Wen', 'Ash', 'Holm', 'Fen', 'Brack', 'Thorn', 'Ell', 'Mar', 'Sel', 'Kel', 'Lind', 'Ave', 'Dun', 'Rye'],
  ['by', 'low', 'combe', 'bury', 'mere', 'ford', 'wick', 'stow', 'leigh', 'holme', 'minster', 'field'],
];
const frenchParts: [string[], string[]] = [
  ['Beau', 'Mont', 'Val', 'Roche', 'Bel', 'Clair', 'Haute', 'Fon', 'Ver', 'Grand', 'Lor', 'Sau', 'Bois', 'Cour'],
  ['champ', 'fort', 'mont', 'court', 'ville', 'lac', 'bois', 'fleur', 'rive', 'pré', 'vigne', 'serre', 'val', 'noir'],
];
const italianParts: [string[], string[]] = [
  ['Bella', 'Monte', 'Rosso', 'Villa', 'Castel', 'Bon', 'Forte', 'Chiara', 'Valle', 'Orsi', 'Santa', 'Pietra', 'Acqua', 'Selva'],
  ['viti', 'franchi', 'vecchi', 'nero', 'santo', 'leone', 'fiore', 'mare', 'lunga', 'grazia', 'verde', 'stella', 'corte', 'bruna'],
];
const spanishParts: [string[], string[]] = [
  ['Villa', 'Valde', 'Monte', 'Torre', 'Casa', 'Sierra', 'Fuente', 'Peña', 'Río', 'Campo', 'Vega', 'Lomas', 'Alba'],
  ['rrosa', 'luna', 'verde', 'alta', 'blanca', 'seca', 'llana', 'hermosa', 'mayor', 'clara', 'nueva', 'dorada', 'fría'],
];
const germanParts: [string[], string[]] = [
  ['Linden', 'Eichen', 'Rosen', 'Stein', 'Berg', 'Wald', 'Hohen', 'Brunn', 'Falken', 'Gold', 'Silber', 'Tannen', 'Wolken', 'Morgen'],
  ['hart', 'wald', 'feld', 'berg', 'thal', 'hof', 'mann', 'bach', 'stein', 'dorf', 'au', 'brunner', 'heim', 'kamp'],
];
const greekPlaces = ['Amyrra', 'Lethaia', 'Sykaria', 'Deliope', 'Thessara', 'Korrhos', 'Melanthe', 'Anthedra', 'Pelleia', 'Orthyra', 'Kyparessa', 'Myrsinos', 'Tharrhe', 'Halikora', 'Epheira', 'Leontia', 'Skiathra', 'Aigilea', 'Nisyra', 'Phelloe'];

export const authorCultures: Record<string, CultureNames> = {
  greek: {
    eras: { Ancient: 26 },
    women: { Ancient: 0.25 },
    faiths: { Christian: 1 },
    male: ['Aristion', 'Kallias', 'Theodotos', 'Nikandros', 'Philon', 'Demetrios', 'Eudoros', 'Hermippos', 'Lykon', 'Menandros', 'Timon', 'Kleon', 'Xenarchos', 'Dion', 'Praxias', 'Straton', 'Glaukos', 'Chairemon', 'Pamphilos', 'Ameinias', 'Hegesias', 'Kritolaos', 'Euthydemos', 'Sosipatros'],
    female: ['Theano', 'Aristoklea', 'Myrto', 'Eirene', 'Phila', 'Nikarete', 'Melissa', 'Timo', 'Praxinoa', 'Damo', 'Hipparche', 'Lysandra', 'Agathe', 'Xenia', 'Thaleia', 'Philinna', 'Kallisto', 'Arete'],
    places: greekPlaces,
    formats: { male: ['{given} of {place}', '{given} of {place}', '{given} the Elder of {place}'], female: ['{given} of {place}'] },
  },
  roman: {
    eras: { Ancient: 22 },
    women: { Ancient: 0.2 },
    faiths: { Christian: 1 },
    male: ['Gaius', 'Lucius', 'Marcus', 'Quintus', 'Titus', 'Aulus', 'Sextus', 'Gnaeus', 'Decimus', 'Publius', 'Spurius', 'Servius'],
    female: ['Aurelia', 'Caecilia', 'Livia', 'Flavia', 'Octavia', 'Valeria', 'Sulpicia', 'Domitia', 'Lucilla', 'Priscilla', 'Tertia', 'Vibia'],
    familyParts: [
      ['Vell', 'Sent', 'Arr', 'Cass', 'Fab', 'Marr', 'Oct', 'Vib', 'Lur', 'Cael', 'Terent', 'Ael', 'Sabin', 'Numm'],
      ['enius Crispus', 'idius Varro', 'ilius Priscus', 'onius Celer', 'icius Longus', 'enius Maro', 'idius Severus', 'ilius Flaccus', 'onius Rufus', 'icius Lentulus', 'anius Macer', 'ellius Pollio'],
    ],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  desertFathers: {
    eras: { Ancient: 6 },
    women: { Ancient: 0.3 },
    faiths: { Christian: 1 },
    male: ['Pachon', 'Isidoros', 'Theon', 'Sisoes', 'Ammoun', 'Hieron', 'Paphnout', 'Orsisios', 'Zosimas', 'Achillas'],
    female: ['Theodora', 'Syncletia', 'Matrona', 'Thaïs', 'Sarra', 'Photini'],
    places: ['Skete', 'Kellia', 'Nitria', 'the Thebaid', 'Pispir', 'Oxyrhynchus'],
    formats: { male: ['Abba {given} of {place}'], female: ['Amma {given} of {place}'] },
  },
  hebrew: {
    eras: { Ancient: 10 },
    women: { Ancient: 0.2 },
    faiths: { Jewish: 1 },
    male: ['Yosef', 'Natan', 'Eliezer', 'Shimon', 'Yehuda', 'Avraham', 'Yitzhak', 'Menachem', 'Binyamin', 'Ezra', 'Yonatan', 'Hanina', 'Matya', 'Elazar', 'Reuven', 'Levi', 'Shmuel', 'Tzadok'],
    female: ['Miriam', 'Devorah', 'Hannah', 'Tzipporah', 'Yehudit', 'Shulamit', 'Batya', 'Naomi'],
    formats: { male: ['Rabbi {given} ben {given2}'], female: ['{given} bat {given2}'] },
  },
  sanskrit: {
    eras: { Ancient: 14, Medieval: 8 },
    women: { Ancient: 0.2, Medieval: 0.25 },
    faiths: { Hindu: 3, Buddhist: 2 },
    male: ['Haridatta', 'Vasubhadra', 'Mitrasena', 'Somakirti', 'Jayavarman', 'Anantadeva', 'Surananda', 'Kirtisena', 'Nilabhadra', 'Satyamitra', 'Rudradatta', 'Indusharman', 'Meghaghosha', 'Viradeva', 'Prabhakirti', 'Devamitra'],
    female: ['Prabhavati', 'Indulekha', 'Satyamati', 'Meghashri', 'Vidyadevi', 'Nilaprabha', 'Jayashri', 'Kirtimati', 'Somalekha', 'Anantavati'],
    places: ['Nilapura', 'Chandrakota', 'Ratnakota', 'Sindhuvana', 'Tilakapura', 'Meghagiri', 'Amravana', 'Padmagrama', 'Shilapura', 'Kusumagrama', 'Hemavati', 'Vetravati'],
    formats: { male: ['{given} of {place}', 'Acharya {given} of {place}'], female: ['{given} of {place}'] },
  },
  chinese: {
    eras: { Ancient: 22, Medieval: 16, 'Early Modern': 10 },
    women: { Ancient: 0.15, Medieval: 0.2, 'Early Modern': 0.25 },
    faiths: { Confucian: 4, Taoist: 3, Buddhist: 3 },
    male: ['Wenqing', 'Mingde', 'Shuyan', 'Zhiyuan', 'Jinghua', 'Boqian', 'Xuanyi', 'Huirong', 'Chengfeng', 'Guangzhi', 'Jianping', 'Kangning', 'Ruide', 'Taoran', 'Weishan', 'Yuanzhong', 'Zhenbo', 'Hongjian', 'Deming', 'Qingyun'],
    female: ['Meilan', 'Shuying', 'Yanqiu', 'Huiling', 'Jingyi', 'Lanxin', 'Qianrou', 'Yunshu', 'Ruolan', 'Mingzhu', 'Wanqing', 'Suhua', 'Yueying'],
    family: ['Wang', 'Zhang', 'Liu', 'Chen', 'Yang', 'Zhao', 'Huang', 'Zhou', 'Wu', 'Xu', 'Sun', 'Zhu', 'Hu', 'Guo', 'Gao', 'Lin', 'Luo', 'Zheng', 'Liang', 'Xie', 'Song', 'Tang', 'Han', 'Feng', 'Deng', 'Cao', 'Peng', 'Zeng', 'Xiao', 'Tian', 'Dong', 'Pan', 'Yuan', 'Cai', 'Jiang', 'Ye', 'Cheng', 'Su', 'Ding', 'Shen', 'Yao'],
    formats: { male: ['{family} {given}'], female: ['{family} {given}'] },
  },
  chineseModern: {
    eras: { Modern: 4, Contemporary: 5, Present: 6 },
    women: { Modern: 0.4, Contemporary: 0.5, Present: 0.5 },
    faiths: { Buddhist: 3, Taoist: 2, Confucian: 2, Christian: 1 },
    male: ['Jianguo', 'Zhiqiang', 'Yuchen', 'Zihao', 'Junjie', 'Haoyu', 'Mingxuan', 'Tianyi', 'Zhenyu', 'Weiming'],
    female: ['Xinyi', 'Yutong', 'Zihan', 'Ruoxi', 'Siyu', 'Xiaomei', 'Jiayi', 'Yuhan', 'Shuting', 'Mengyao'],
    family: ['Wang', 'Zhang', 'Liu', 'Chen', 'Yang', 'Zhao', 'Huang', 'Zhou', 'Wu', 'Xu', 'Sun', 'Zhu', 'Hu', 'Guo', 'Gao', 'Lin', 'Luo', 'Zheng', 'Liang', 'Xie', 'Song', 'Tang', 'Han', 'Feng', 'Deng', 'Cao', 'Peng', 'Zeng', 'Xiao', 'Tian'],
    formats: { male: ['{family} {given}', '{given} {family}'], female: ['{family} {given}', '{given} {family}'] },
  },
  latinMonastic: {
    eras: { Medieval: 20 },
    women: { Medieval: 0.35 },
    faiths: { Christian: 1 },
    male: ['Anselm', 'Aelred', 'Wulfstan', 'Odo', 'Bertram', 'Godric', 'Ansgar', 'Cuthred', 'Eadmer', 'Hugo', 'Lambert', 'Osric', 'Walafrid', 'Remigius', 'Theobald', 'Rainald', 'Fulbert', 'Gerald'],
    female: ['Hilda', 'Aldith', 'Gertrude', 'Mechtild', 'Hildegund', 'Eadgyth', 'Frideswide', 'Wendreda', 'Agnes', 'Clothilde', 'Juliana', 'Margery', 'Beatrix', 'Ermengard'],
    placeParts: englishPlaces,
    formats: { male: ['Brother {given} of {place}', 'Abbot {given} of {place}', '{given} of {place}'], female: ['Sister {given} of {place}', 'Abbess {given} of {place}', '{given} of {place}'] },
  },
  arabic: {
    eras: { Medieval: 18, 'Early Modern': 6 },
    women: { Medieval: 0.2, 'Early Modern': 0.2 },
    faiths: { Islamic: 6, Christian: 1 },
    male: ['Yusuf', 'Harun', 'Ibrahim', 'Khalid', 'Idris', 'Sulayman', 'Tariq', 'Hamza', 'Mahmud', 'Yahya', 'Zayd', 'Ismail', 'Jafar', 'Nasir', 'Rashid', 'Bakr', 'Fadl', 'Thabit'],
    female: ['Fatima', 'Zaynab', 'Khadija', 'Maryam', 'Ruqayya', 'Layla', 'Sukayna', 'Nafisa', 'Safiyya', 'Hind', 'Asma', 'Umama'],
    places: ['Qazwani', 'Harrani', 'Samarqi', 'Dimashqi', 'Wasiti', 'Baladhi', 'Tihami', 'Halabi', 'Rusafi', 'Maqdisi', 'Sijilmasi', 'Tanukhi'],
    formats: { male: ['{given} ibn {given2} al-{place}'], female: ['{given} bint {given2:male} al-{place}'] },
  },
  arabicModern: {
    eras: { Modern: 5, Contemporary: 6, Present: 6 },
    women: { Modern: 0.3, Contemporary: 0.45, Present: 0.5 },
    faiths: { Islamic: 5, Christian: 1 },
    male: ['Karim', 'Samir', 'Nabil', 'Hisham', 'Ziad', 'Omar', 'Tariq', 'Youssef', 'Walid', 'Fadi', 'Rami', 'Adel'],
    female: ['Rania', 'Nour', 'Salma', 'Hala', 'Huda', 'Layla', 'Dina', 'Yasmin', 'Lina', 'Mariam', 'Reem', 'Samia'],
    family: ['Haddad', 'Khoury', 'Mansour', 'Nasser', 'Saleh', 'Azzam', 'Farouk', 'Hamdan', 'Kassab', 'Shami', 'Barakat', 'Jaber', 'Qasim', 'Hourani', 'Tamimi', 'Zubaidi', 'Sabbagh', 'Nassar', 'Awad', 'Halabi', 'Sayegh', 'Maalouf', 'Bitar', 'Sarkis', 'Ghanem', 'Fakhoury', 'Rizk', 'Daher'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  persian: {
    eras: { Medieval: 12, 'Early Modern': 5 },
    women: { Medieval: 0.2, 'Early Modern': 0.25 },
    faiths: { Islamic: 5 },
    male: ['Bahram', 'Farrokh', 'Kaveh', 'Mehran', 'Shahriar', 'Sohrab', 'Jamshid', 'Manuchehr', 'Khosrow', 'Bahman', 'Ardeshir', 'Kourosh', 'Siavash', 'Farhad', 'Bijan', 'Nader', 'Houshang', 'Kamran', 'Mehrdad', 'Ramin'],
    female: ['Shirin', 'Golnar', 'Roshan', 'Parisa', 'Mahtab', 'Setareh', 'Gohar', 'Golbanu', 'Firuzeh', 'Nilufar', 'Banu', 'Mahin', 'Simin', 'Turan'],
    places: ['Marvdasht', 'Soltaniyeh', 'Golpayegan', 'Dastgerd', 'Shahrabad', 'Faridan', 'Abarkuh', 'Meybod', 'Khansar', 'Sarvestan', 'Natanz', 'Kashmar', 'Bam', 'Zavareh', 'Tabas', 'Ardestan'],
    formats: { male: ['{given} of {place}'], female: ['{given} of {place}'] },
  },
  persianModern: {
    eras: { Contemporary: 3, Present: 3 },
    faiths: { Islamic: 5 },
    male: ['Dariush', 'Babak', 'Parviz', 'Kaveh', 'Arash', 'Kian', 'Reza', 'Navid'],
    female: ['Mahsa', 'Nasrin', 'Soraya', 'Taraneh', 'Yasaman', 'Azadeh', 'Shadi', 'Nazanin'],
    family: ['Rahimi', 'Karimi', 'Moradi', 'Sadeghi', 'Jafari', 'Rostami', 'Farahani', 'Alavi', 'Navabi', 'Golestani'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  japanese: {
    eras: { Medieval: 8, 'Early Modern': 7 },
    women: { Medieval: 0.3, 'Early Modern': 0.25 },
    faiths: { Buddhist: 4, Confucian: 1 },
    male: ['Sanetaka', 'Tomoyuki', 'Yoritsune', 'Kagemasa', 'Naritoki', 'Sadamichi', 'Tadafusa', 'Nobuyuki', 'Kiyoshige', 'Masatoshi', 'Harutaka', 'Munenori'],
    female: ['Chikako', 'Tamayori', 'Nakako', 'Yasuko', 'Shizuka', 'Kiku', 'Hatsu', 'Yae', 'Shino', 'Michi'],
    family: ['Tachibana', 'Minabuchi', 'Kiyowara', 'Fujiyama', 'Ishikawa', 'Arakawa', 'Nakahara', 'Okabe', 'Murase', 'Tsuchiya', 'Hirose', 'Morikawa'],
    formats: { male: ['{family} {given}'], female: ['{family} {given}'] },
  },
  japaneseModern: {
    eras: { Modern: 5, Contemporary: 6, Present: 6 },
    women: { Modern: 0.35, Contemporary: 0.5, Present: 0.5 },
    faiths: { Buddhist: 4, Christian: 1 },
    male: ['Kenji', 'Takeshi', 'Daisuke', 'Kaito', 'Sota', 'Hiroshi', 'Shun', 'Ren', 'Yuto', 'Kazuo', 'Haruki', 'Tetsuya', 'Masato', 'Yoshio', 'Akira', 'Ichiro'],
    female: ['Haruka', 'Emi', 'Sakura', 'Yuna', 'Hina', 'Aoi', 'Naomi', 'Mei', 'Rin', 'Fumiko', 'Keiko', 'Yumiko', 'Chiharu', 'Nanami', 'Ayaka', 'Misaki'],
    family: ['Shimizu', 'Ueda', 'Takeda', 'Sawada', 'Yoshimura', 'Hoshino', 'Kobayashi', 'Matsuda', 'Inoue', 'Kimura', 'Sasaki', 'Ikeda', 'Aoki', 'Fujii', 'Nishimura', 'Okada', 'Nakajima', 'Maeda', 'Ogawa', 'Hasegawa', 'Kondo', 'Murakoshi', 'Endo', 'Sakai', 'Ishii', 'Hirano', 'Kudo', 'Miura', 'Noguchi', 'Tamura'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  norse: {
    eras: { Medieval: 6 },
    women: { Medieval: 0.3 },
    faiths: { Christian: 1 },
    male: ['Halldor', 'Ketil', 'Thorvald', 'Bjarni', 'Orm', 'Hrafn', 'Grim', 'Ulf', 'Arnbjorn', 'Solvi', 'Asgeir', 'Steinar'],
    female: ['Gudrun', 'Thorunn', 'Ragnhild', 'Sigrid', 'Asta', 'Helga', 'Vigdis', 'Jorunn', 'Thora', 'Ingunn'],
    formats: { male: ['{given} {given2}sson'], female: ['{given} {given2:male}sdottir'] },
  },
  byzantine: {
    eras: { Medieval: 8 },
    women: { Medieval: 0.25 },
    faiths: { Christian: 1 },
    male: ['Theodoros', 'Ioannes', 'Nikephoros', 'Michael', 'Leon', 'Basileios', 'Konstantinos', 'Georgios', 'Manuel', 'Andronikos'],
    female: ['Theodora', 'Eudokia', 'Anna', 'Zoe', 'Irene', 'Maria', 'Helena', 'Theophano', 'Euphrosyne'],
    family: ['Chrysanthes', 'Pyrrhakes', 'Skleropoulos', 'Lampadites', 'Kerameas', 'Xylinites', 'Amarantos', 'Philokales', 'Myrepsos', 'Galenites'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  sephardic: {
    eras: { Medieval: 7, 'Early Modern': 4 },
    women: { Medieval: 0.15, 'Early Modern': 0.2 },
    faiths: { Jewish: 1 },
    male: ['Yosef', 'Natan', 'Menachem', 'Yonah', 'Asher', 'Meir', 'Chaim', 'Yaakov', 'Eliyahu', 'Baruch', 'Shemaryah', 'Todros'],
    female: ['Dulcie', 'Reyna', 'Oro', 'Esther', 'Sarah', 'Rivka', 'Perla', 'Bienvenida'],
    places: ['Lunel', 'Besalú', 'Tortosa', 'Speyer', 'Regensburg', 'Huesca', 'Perpignan', 'Kairouan', 'Arles', 'Calatayud'],
    formats: { male: ['Rabbi {given} ben {given2} of {place}'], female: ['{given} bat {given2:male} of {place}'] },
  },
  bhakti: {
    eras: { Medieval: 6, 'Early Modern': 5 },
    women: { Medieval: 0.35, 'Early Modern': 0.35 },
    faiths: { Hindu: 1 },
    male: ['Keshavdas', 'Madhavdas', 'Govinddas', 'Raghudas', 'Mukunddas', 'Vitthaldas', 'Damodardas', 'Janardandas', 'Shyamdas', 'Narayandas', 'Tukaramdas', 'Hariramdas', 'Gopaldas', 'Sundardas'],
    female: ['Gangabai', 'Tulsabai', 'Sitabai', 'Janabai', 'Radhabai', 'Kesarbai', 'Lakshmibai', 'Yamunabai', 'Kanhobai', 'Muktabai', 'Chandrabai', 'Savitribai'],
    places: ['Pandharvadi', 'Gokulpur', 'Nandgram', 'Vrajpur', 'Haripur', 'Keshavpur', 'Madhuvan', 'Brindapur', 'Sitapur', 'Radhagram', 'Kanhapur', 'Vithalwadi', 'Govardhanpur', 'Jamunavan'],
    formats: { male: ['Sant {given} of {place}'], female: ['{given} of {place}'] },
  },
  english: {
    eras: { 'Early Modern': 22, Modern: 24 },
    women: { 'Early Modern': 0.3, Modern: 0.4 },
    faiths: { Christian: 6, Jewish: 1 },
    male: ['Thomas', 'John', 'William', 'Richard', 'Edmund', 'Nathaniel', 'Josiah', 'Samuel', 'Henry', 'Francis', 'Ambrose', 'Gilbert', 'Jeremiah', 'Tobias', 'Walter', 'Edward', 'Arthur', 'Frederick', 'Albert', 'Horace', 'Herbert', 'Ernest', 'Cyril', 'Lionel', 'Silas', 'Jasper'],
    female: ['Margaret', 'Anne', 'Elizabeth', 'Mary', 'Dorothy', 'Katherine', 'Alice', 'Susanna', 'Judith', 'Hester', 'Grace', 'Prudence', 'Edith', 'Florence', 'Harriet', 'Beatrice', 'Mabel', 'Winifred', 'Clara', 'Eleanor', 'Adelaide', 'Lavinia', 'Ada', 'Violet', 'Ilse'],
    familyParts: englishParts,
    formats: { male: ['{given} {family}', '{given} {family}', '{given} {initial}. {family}'], female: ['{given} {family}'] },
  },
  englishModern: {
    eras: { Contemporary: 26, Present: 22 },
    women: { Contemporary: 0.5, Present: 0.52 },
    faiths: { Christian: 5, Buddhist: 1, Jewish: 1 },
    male: ['David', 'Michael', 'James', 'Robert', 'Daniel', 'Paul', 'Gregory', 'Douglas', 'Philip', 'Owen', 'Caleb', 'Theo', 'Miles', 'Elliot', 'Rowan', 'Ezra', 'Felix', 'Tobias', 'Nathan', 'Simon'],
    female: ['Linda', 'Barbara', 'Susan', 'Carol', 'Judith', 'Diane', 'Joan', 'Ruth', 'Maya', 'Nora', 'Isla', 'Hazel', 'Iris', 'Wren', 'Tessa', 'Ivy', 'Claire', 'Hannah', 'Odalys', 'Ilse'],
    familyParts: englishParts,
    formats: { male: ['{given} {family}', '{given} {family}', '{given} {initial}. {family}'], female: ['{given} {family}', '{given} {family}', '{given} {initial}. {family}'] },
  },
  french: {
    eras: { 'Early Modern': 12, Modern: 10, Contemporary: 6, Present: 4 },
    women: { 'Early Modern': 0.3, Modern: 0.4, Contemporary: 0.5, Present: 0.5 },
    faiths: { Christian: 3, Jewish: 1 },
    male: ['Jean', 'Pierre', 'Étienne', 'Nicolas', 'François', 'Claude', 'Antoine', 'Louis', 'Guillaume', 'Henri', 'Jacques', 'Lucien', 'Émile', 'Gaston', 'Olivier', 'Julien'],
    female: ['Marie', 'Madeleine', 'Catherine', 'Marguerite', 'Françoise', 'Louise', 'Jeanne', 'Hélène', 'Geneviève', 'Camille', 'Solange', 'Odile', 'Céline', 'Margaux'],
    familyParts: frenchParts,
    formats: { male: ['{given} {family}', '{given} de {family}'], female: ['{given} {family}', '{given} de {family}'] },
  },
  italian: {
    eras: { 'Early Modern': 10, Modern: 6, Contemporary: 4, Present: 3 },
    women: { 'Early Modern': 0.3, Modern: 0.4, Contemporary: 0.5, Present: 0.5 },
    faiths: { Christian: 1 },
    male: ['Lorenzo', 'Giovanni', 'Matteo', 'Tommaso', 'Girolamo', 'Benedetto', 'Federico', 'Alessandro', 'Pietro', 'Ettore', 'Vittorio', 'Giacomo'],
    female: ['Caterina', 'Lucrezia', 'Isabella', 'Vittoria', 'Giulia', 'Ginevra', 'Costanza', 'Margherita', 'Elena', 'Chiara', 'Serena', 'Ilaria'],
    familyParts: italianParts,
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  spanish: {
    eras: { 'Early Modern': 10, Modern: 6 },
    women: { 'Early Modern': 0.3, Modern: 0.4 },
    faiths: { Christian: 1 },
    male: ['Diego', 'Juan', 'Alonso', 'Rodrigo', 'Gaspar', 'Melchor', 'Luis', 'Pedro', 'Sebastián', 'Baltasar', 'Hernando', 'Íñigo'],
    female: ['Isabel', 'Juana', 'Catalina', 'Inés', 'Leonor', 'Mariana', 'Beatriz', 'Luisa', 'Constanza', 'Mencía'],
    familyParts: spanishParts,
    formats: { male: ['{given} {family}', '{given} de {family}'], female: ['{given} {family}', '{given} de {family}'] },
  },
  spanishModern: {
    eras: { Contemporary: 5, Present: 5 },
    faiths: { Christian: 1 },
    male: ['Javier', 'Sergio', 'Pablo', 'Álvaro', 'Hugo', 'Marcos', 'Adrián', 'Iker'],
    female: ['Lucía', 'Carmen', 'Marta', 'Elena', 'Nerea', 'Alba', 'Irene', 'Paula'],
    familyParts: spanishParts,
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  german: {
    eras: { 'Early Modern': 10, Modern: 10, Contemporary: 5, Present: 4 },
    women: { 'Early Modern': 0.25, Modern: 0.35, Contemporary: 0.5, Present: 0.5 },
    faiths: { Christian: 3, Jewish: 1 },
    male: ['Johann', 'Matthias', 'Georg', 'Christoph', 'Friedrich', 'Heinrich', 'Jakob', 'Andreas', 'Konrad', 'Wilhelm', 'Ludwig', 'Ernst', 'Jonas', 'Lukas'],
    female: ['Anna', 'Katharina', 'Margaretha', 'Sophia', 'Dorothea', 'Elisabeth', 'Ursula', 'Magdalena', 'Christina', 'Luise', 'Hedwig', 'Greta', 'Lena', 'Frieda'],
    familyParts: germanParts,
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  dutch: {
    eras: { 'Early Modern': 6, Modern: 3 },
    women: { 'Early Modern': 0.25, Modern: 0.35 },
    faiths: { Christian: 3, Jewish: 1 },
    male: ['Pieter', 'Jan', 'Willem', 'Hendrik', 'Cornelis', 'Maarten', 'Joost', 'Dirk', 'Adriaan', 'Gerrit'],
    female: ['Geertruida', 'Catharina', 'Johanna', 'Margriet', 'Aleida', 'Trijntje', 'Neeltje', 'Sara', 'Anneke', 'Machteld'],
    familyParts: [
      ['Ooster', 'Wester', 'Hooge', 'Linde', 'Berke', 'Zand', 'Beek', 'Molen', 'Kamp', 'Dijk'],
      ['wijk', 'veld', 'hoven', 'broek', 'dam', 'berg', 'hout', 'hem', 'rade', 'stein'],
    ],
    formats: { male: ['{given} van {family}'], female: ['{given} van {family}'] },
  },
  ottoman: {
    eras: { 'Early Modern': 7, Modern: 3 },
    women: { 'Early Modern': 0.2, Modern: 0.3 },
    faiths: { Islamic: 1 },
    male: ['Mehmed', 'Ahmed', 'Mustafa', 'Hasan', 'Osman', 'Selim', 'Yusuf', 'Halil', 'Ömer', 'Murad', 'Rıza', 'Nuri'],
    female: ['Fatma', 'Ayşe', 'Hatice', 'Emine', 'Zeynep', 'Safiye', 'Hüma', 'Leyla', 'Şerife', 'Nigâr'],
    places: ['Bursa', 'Konya', 'Edirne', 'Manisa', 'Amasya', 'Trabzon', 'Sivas', 'Tokat', 'Kütahya', 'Üsküdar'],
    formats: { male: ['{given} Efendi of {place}'], female: ['{given} Hanım of {place}'] },
  },
  indian: {
    eras: { 'Early Modern': 4, Modern: 7 },
    women: { 'Early Modern': 0.25, Modern: 0.35 },
    faiths: { Hindu: 6, Buddhist: 1 },
    male: ['Sukumar', 'Bibhuti', 'Haraprasad', 'Nirmal', 'Amiya', 'Subodh', 'Jatindra', 'Prabhat', 'Gopinath', 'Ramkumar', 'Keshavlal', 'Trilochan'],
    female: ['Hemlata', 'Lila', 'Sushila', 'Prabhavati', 'Kumudini', 'Mrinalini', 'Kashibai', 'Anandi', 'Rukmini', 'Saudamini'],
    family: ['Sen', 'Basu', 'Ghosh', 'Mitra', 'Sarkar', 'Dutta', 'Raman', 'Iyer', 'Menon', 'Bhatt', 'Desai', 'Kulkarni', 'Joshi', 'Pillai'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  indianModern: {
    eras: { Contemporary: 9, Present: 11 },
    faiths: { Hindu: 6, Buddhist: 1, Christian: 1 },
    male: ['Arjun', 'Rohan', 'Vikram', 'Anil', 'Suresh', 'Karthik', 'Nikhil', 'Sanjay', 'Aditya', 'Rahul', 'Varun', 'Dev', 'Ishaan', 'Yash', 'Harsh', 'Kabir'],
    female: ['Priya', 'Ananya', 'Kavya', 'Meera', 'Lakshmi', 'Deepa', 'Nandini', 'Shreya', 'Radhika', 'Aarti', 'Ishita', 'Pooja', 'Neha', 'Tanvi', 'Riya', 'Diya'],
    family: ['Raman', 'Iyer', 'Menon', 'Kapoor', 'Bhatt', 'Desai', 'Nair', 'Kulkarni', 'Reddy', 'Joshi', 'Mehta', 'Pillai', 'Chandran', 'Verma', 'Agarwal', 'Banerji', 'Chopra', 'Gupta', 'Hegde', 'Malhotra', 'Saxena'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  southAsianMuslim: {
    eras: { 'Early Modern': 2, Modern: 3, Contemporary: 3, Present: 4 },
    women: { 'Early Modern': 0.2, Modern: 0.3, Contemporary: 0.45, Present: 0.5 },
    faiths: { Islamic: 1 },
    male: ['Imran', 'Farhan', 'Asif', 'Zubair', 'Saad', 'Bilal', 'Hamid', 'Junaid', 'Faisal', 'Waqar', 'Nadeem', 'Usman'],
    female: ['Zoya', 'Ayesha', 'Sana', 'Farah', 'Nadia', 'Rukhsana', 'Shabnam', 'Zeenat', 'Amna', 'Mehreen', 'Saima', 'Uzma'],
    family: ['Qureshi', 'Siddiqui', 'Ansari', 'Chaudhry', 'Malik', 'Sheikh', 'Rizvi', 'Naqvi', 'Hashmi', 'Farooqui', 'Kazmi', 'Jafri', 'Abbasi', 'Usmani'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  russian: {
    eras: { Modern: 9, Contemporary: 5, Present: 3 },
    women: { Modern: 0.35, Contemporary: 0.5, Present: 0.5 },
    faiths: { Christian: 3, Jewish: 1 },
    male: ['Pavel', 'Nikolai', 'Alexei', 'Dmitri', 'Ivan', 'Sergei', 'Mikhail', 'Konstantin', 'Grigori', 'Andrei', 'Vasily', 'Pyotr'],
    female: ['Anna', 'Natalya', 'Yelena', 'Olga', 'Vera', 'Tatiana', 'Sofia', 'Lidia', 'Marina', 'Irina', 'Zinaida', 'Varvara'],
    familyParts: [
      ['Vorob', 'Zarech', 'Belog', 'Lugov', 'Sokolin', 'Krasnop', 'Dubrav', 'Severin', 'Tikhon', 'Yasnog', 'Rechn', 'Berez'],
      ['ov', 'in', 'sky', 'ev', 'ovsky', 'ikhin'],
    ],
    feminine: [['sky', 'skaya'], ['ov', 'ova'], ['ev', 'eva'], ['in', 'ina']],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  nordic: {
    eras: { Modern: 5, Contemporary: 4, Present: 3 },
    women: { Modern: 0.35, Contemporary: 0.5, Present: 0.5 },
    faiths: { Christian: 1 },
    male: ['Anders', 'Nils', 'Erik', 'Lars', 'Magnus', 'Henrik', 'Olav', 'Sven', 'Axel', 'Emil'],
    female: ['Astrid', 'Ingrid', 'Karin', 'Signe', 'Elsa', 'Liv', 'Maja', 'Sigrid', 'Freja', 'Linnea'],
    familyParts: [
      ['Lind', 'Berg', 'Sand', 'Ek', 'Holm', 'Ahl', 'Fors', 'Dahl', 'Sjö', 'Ros', 'Alm', 'Stjern'],
      ['qvist', 'ström', 'gren', 'lund', 'berg', 'dahl', 'holm', 'vik', 'mark', 'sten'],
    ],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  yiddish: {
    eras: { Modern: 5, Contemporary: 2 },
    women: { Modern: 0.3, Contemporary: 0.45 },
    faiths: { Jewish: 1 },
    male: ['Moyshe', 'Avrom', 'Shloyme', 'Hersh', 'Leyb', 'Mendl', 'Yankev', 'Dovid', 'Itzik', 'Zalmen'],
    female: ['Rivke', 'Sore', 'Khaye', 'Malke', 'Dvoyre', 'Feygl', 'Gitl', 'Perl', 'Rokhl', 'Esther'],
    family: ['Zilberman', 'Perlmutter', 'Lipsky', 'Kagan', 'Feldman', 'Rosenthal', 'Grinberg', 'Shapiro', 'Vaynshteyn', 'Kornblit'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  irish: {
    eras: { Modern: 5, Contemporary: 4, Present: 3 },
    women: { Modern: 0.35, Contemporary: 0.5, Present: 0.5 },
    faiths: { Christian: 1 },
    male: ['Ciarán', 'Declan', 'Eoin', 'Fergal', 'Niall', 'Padraig', 'Ronan', 'Cormac', 'Diarmuid', 'Colm', 'Oisín', 'Tadhg', 'Donal', 'Cathal'],
    female: ['Aoife', 'Niamh', 'Siobhán', 'Orla', 'Clodagh', 'Gráinne', 'Róisín', 'Saoirse', 'Bríd', 'Nuala', 'Áine', 'Eimear', 'Sorcha', 'Caoimhe'],
    family: ['Brennan', 'Gallagher', 'Kavanagh', 'Lynch', 'Mulligan', 'Nolan', 'Quinlan', 'Sheridan', 'Tierney', 'Donnelly', 'Ó Fearghail', 'Mac Giolla', 'Connolly', 'Doherty', 'Fahy', 'Hegarty', 'Keane', 'Moran', 'Noonan', 'Rooney', 'Scanlon', 'Whelan', 'Cullinane', 'Dunleavy'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  nigerian: {
    eras: { Contemporary: 6, Present: 8 },
    women: { Contemporary: 0.45, Present: 0.5 },
    faiths: { Christian: 1 },
    male: ['Chinedu', 'Oluwaseun', 'Emeka', 'Adebayo', 'Ikenna', 'Tunde', 'Obinna', 'Femi', 'Chukwudi', 'Kayode'],
    female: ['Ngozi', 'Adaeze', 'Folake', 'Chiamaka', 'Yetunde', 'Ifeoma', 'Temitope', 'Nkechi', 'Funmilayo', 'Amara'],
    family: ['Okafor', 'Adeyemi', 'Nwosu', 'Balogun', 'Eze', 'Adebisi', 'Okeke', 'Afolabi', 'Oyelaran', 'Ogunleye', 'Anozie', 'Ibekwe', 'Okonkwo-Bello', 'Akinola', 'Chukwu', 'Ezeh', 'Fashola', 'Ibeh', 'Lawal', 'Nwachukwu', 'Odunsi', 'Uche'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  westAfricanMuslim: {
    eras: { Contemporary: 2, Present: 3 },
    faiths: { Islamic: 1 },
    male: ['Abubakar', 'Sani', 'Musa', 'Aliyu', 'Mamadou', 'Ousmane', 'Cheikh', 'Lamine', 'Bashir', 'Yakubu'],
    female: ['Hauwa', 'Zainab', 'Amina', 'Aminata', 'Mariama', 'Khadija', 'Hadiza', 'Fatoumata', 'Binta', 'Safiya'],
    family: ['Bello', 'Danjuma', 'Abdullahi', 'Suleiman', 'Diallo', 'Ndiaye', 'Sow', 'Garba', 'Kane', 'Tall', 'Mahmoud', 'Shehu'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  eastAfrican: {
    eras: { Contemporary: 3, Present: 5 },
    faiths: { Christian: 1 },
    male: ['Kamau', 'Otieno', 'Mwangi', 'Kiprop', 'Baraka', 'Omondi', 'Juma', 'Tendai', 'Kiptoo', 'Mutua', 'Onyango', 'Hamisi'],
    female: ['Wanjiru', 'Akinyi', 'Njeri', 'Achieng', 'Nyambura', 'Atieno', 'Rehema', 'Neema', 'Wambui', 'Zawadi', 'Imani', 'Auma'],
    family: ['Kariuki', 'Odhiambo', 'Mutua', 'Wekesa', 'Cheruiyot', 'Njoroge', 'Owino', 'Karanja', 'Moyo', 'Mwakilema', 'Kibet', 'Nyaga', 'Otieno-Okoth', 'Mbugua', 'Chepkoech', 'Mwangangi'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  korean: {
    eras: { Contemporary: 4, Present: 6 },
    faiths: { Buddhist: 2, Christian: 2, Confucian: 2 },
    male: ['Min-jun', 'Ji-ho', 'Do-yun', 'Hyun-woo', 'Tae-yang', 'Seung-min', 'Jae-won', 'Sung-ho', 'Dong-hyun', 'Min-ho', 'Jun-seo', 'Woo-jin', 'Sang-hoon', 'Yong-su'],
    female: ['Seo-yeon', 'Ha-eun', 'Soo-ah', 'Ji-woo', 'Ye-jin', 'Eun-ji', 'Da-in', 'Min-seo', 'Su-bin', 'Ji-yeon', 'Hye-jin', 'Na-rae', 'So-yeon', 'Mi-rae'],
    family: ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim', 'Han', 'Shin', 'Seo', 'Kwon', 'Hwang'],
    formats: { male: ['{family} {given}'], female: ['{family} {given}'] },
  },
  joseon: {
    eras: { 'Early Modern': 4 },
    women: { 'Early Modern': 0.15 },
    faiths: { Confucian: 3, Buddhist: 1 },
    male: ['Jeong-hwan', 'Sang-jin', 'Yun-seok', 'Hyeon-do', 'Gwang-su', 'In-bo'],
    female: ['Seol-ha', 'Ok-bun', 'Yeon-hwa', 'Gyeong-ae'],
    family: ['Kim', 'Yi', 'Pak', 'Chong', 'Yun', 'Hong', 'Song', 'Sin'],
    formats: { male: ['{family} {given}'], female: ['{family} {given}'] },
  },
  latinAmerican: {
    eras: { Modern: 3, Contemporary: 8, Present: 8 },
    faiths: { Christian: 1 },
    male: ['Mateo', 'Joaquín', 'Andrés', 'Tomás', 'Emiliano', 'Rafael', 'Santiago', 'Felipe', 'Julián', 'João', 'Thiago', 'Lucas'],
    female: ['Valentina', 'Camila', 'Lucía', 'Ximena', 'Paloma', 'Renata', 'Daniela', 'Florencia', 'Beatriz', 'Larissa', 'Fernanda', 'Isadora'],
    family: ['Albuquerque', 'Teixeira', 'Moreira', 'Cardoso', 'Figueiredo', 'Nogueira', 'Pacheco', 'Rezende', 'Siqueira', 'Valderrama', 'Echeverri', 'Montoya', 'Quiroga', 'Arriaga', 'Villaseñor', 'Bustamante', 'Cifuentes', 'Galarza', 'Ibarra', 'Larrañaga', 'Mondragón', 'Olmedo', 'Paredes', 'Sandoval', 'Urrutia', 'Zambrano', 'Ocampo', 'Ferreira', 'Guimarães'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  polish: {
    eras: { Modern: 3, Contemporary: 4, Present: 2 },
    faiths: { Christian: 3, Jewish: 1 },
    male: ['Tomasz', 'Krzysztof', 'Piotr', 'Marek', 'Andrzej', 'Paweł', 'Jakub', 'Wojciech'],
    female: ['Agnieszka', 'Magdalena', 'Katarzyna', 'Ewa', 'Zofia', 'Joanna', 'Małgorzata', 'Hanna'],
    familyParts: [
      ['Wiśni', 'Zieli', 'Brzozo', 'Jasie', 'Kalino', 'Leszczy', 'Sosno', 'Dąbro', 'Grabo', 'Jawor'],
      ['ewski', 'wski', 'cki', 'ński'],
    ],
    feminine: [['ski', 'ska'], ['cki', 'cka']],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  israeli: {
    eras: { Contemporary: 3, Present: 3 },
    faiths: { Jewish: 1 },
    male: ['Noam', 'Eitan', 'Yonatan', 'Amir', 'Gideon', 'Ari', 'Omer', 'Itai'],
    female: ['Noa', 'Tamar', 'Yael', 'Maya', 'Shira', 'Michal', 'Adi', 'Orly'],
    family: ['Ben-Ami', 'Levinson', 'Avrahami', 'Carmeli', 'Golan', 'Harel', 'Peleg', 'Tzur', 'Yaari', 'Ben-Dror'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  thaiVietnamese: {
    eras: { Contemporary: 2, Present: 4 },
    faiths: { Buddhist: 1 },
    male: ['Somchai', 'Anan', 'Kittisak', 'Prasert', 'Thawat', 'Quoc Bao', 'Duc Minh', 'Hoang Nam', 'Van Long', 'Thanh Tung'],
    female: ['Malee', 'Siriporn', 'Kanya', 'Ratana', 'Pranee', 'Thu Trang', 'Lan Chi', 'Bao Ngoc', 'Minh Anh', 'Thanh Huong'],
    family: ['Srisuk', 'Wongsakul', 'Boonmee', 'Suwannarat', 'Chaiyaporn', 'Rattanakorn', 'Nguyen', 'Tran', 'Pham', 'Hoang', 'Vu', 'Dang', 'Bui', 'Ngo'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  malay: {
    eras: { Contemporary: 1, Present: 2 },
    faiths: { Islamic: 1 },
    male: ['Arif', 'Hafiz', 'Farid', 'Azlan', 'Rizal', 'Syafiq', 'Hakim', 'Irfan'],
    female: ['Siti', 'Nurul', 'Dewi', 'Aisyah', 'Fatin', 'Aina', 'Putri', 'Intan'],
    family: ['Rahman', 'Hamzah', 'Ismail', 'Yusof', 'Abdullah', 'Hassan', 'Othman', 'Ramli', 'Salleh', 'Zakaria'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  filipino: {
    eras: { Contemporary: 1, Present: 2 },
    faiths: { Christian: 1 },
    male: ['Miguel', 'Ramon', 'Paolo', 'Carlo', 'Andres', 'Rafael', 'Jose Mari', 'Enrique'],
    female: ['Carmela', 'Rosario', 'Bianca', 'Liza', 'Patricia', 'Maricel', 'Corazon', 'Teresita'],
    family: ['Santos', 'Villanueva', 'Ocampo', 'Bautista', 'Soriano', 'Manalo', 'Dimaculangan', 'Pangilinan', 'Lacson', 'Tolentino'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  himalayan: {
    eras: { Medieval: 4, 'Early Modern': 2, Contemporary: 2, Present: 2 },
    women: { Medieval: 0.25, 'Early Modern': 0.25, Contemporary: 0.45, Present: 0.5 },
    faiths: { Buddhist: 1 },
    male: ['Tenzin', 'Dorje', 'Karma', 'Sonam', 'Lobsang', 'Tashi', 'Jamyang', 'Ngawang', 'Thupten', 'Kunga', 'Rinchen', 'Gyurme', 'Jigme', 'Tsewang'],
    female: ['Pema', 'Dawa', 'Yeshe', 'Tsering', 'Lhamo', 'Dolma', 'Drolkar', 'Kalsang', 'Choden', 'Deki', 'Sangmo', 'Metok'],
    family: ['Norbu', 'Wangmo', 'Phuntsok', 'Dhondup', 'Gyaltsen', 'Rabten', 'Chophel', 'Namgyal', 'Tsomo', 'Lhundrup', 'Samdrup', 'Tobgyal', 'Dorjee', 'Paljor', 'Topgyal', 'Sherab'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  sinhala: {
    eras: { Contemporary: 2, Present: 2 },
    faiths: { Buddhist: 1 },
    male: ['Nimal', 'Sunil', 'Chaminda', 'Kasun', 'Ruwan', 'Lalith', 'Asanka', 'Pradeep', 'Tharindu', 'Upul'],
    female: ['Dilani', 'Nadeesha', 'Sanduni', 'Chathurika', 'Ishara', 'Anoma', 'Hiruni', 'Kumari', 'Madhavi', 'Sewwandi'],
    family: ['Perera', 'Jayasuriya', 'Wickramasinghe', 'Bandara', 'Gunawardena', 'Dissanayake', 'Herath', 'Ekanayake', 'Kumarasinghe', 'Ratnayake', 'Senanayake-Silva', 'Weerasekara'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
  turkish: {
    eras: { Contemporary: 2, Present: 3 },
    faiths: { Islamic: 1 },
    male: ['Emre', 'Burak', 'Kerem', 'Mert', 'Can', 'Deniz', 'Volkan', 'Serkan'],
    female: ['Elif', 'Zeynep', 'Defne', 'Selin', 'Ece', 'Aylin', 'Pınar', 'Gülşen'],
    family: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Aydın', 'Öztürk', 'Arslan', 'Doğan', 'Kılıç'],
    formats: { male: ['{given} {family}'], female: ['{given} {family}'] },
  },
};

/** Authors per era: how many different people the quotes of each era are spread over. */
export const authorsPerEra: Record<string, number> = {
  Ancient: 1400,
  Medieval: 1600,
  'Early Modern': 2000,
  Modern: 2800,
  Contemporary: 3200,
  Present: 3000,
};
