/**
 * Era of authors that real collections quote most, for imported rows without an `era`. Keys are
 * compared after normalising (case, punctuation and spacing ignored), so "Lao-Tzu" finds
 * "lao tzu". The eras follow CORPUS.md: Ancient to 500, Medieval 500-1500, Early Modern
 * 1500-1800, Modern 1800-1945, Contemporary 1945-2000, Present from 2000, by when the author's
 * main work appeared. This is content: extend it freely.
 */
export const knownAuthorEras: Record<string, string[]> = {
  Ancient: [
    'Aristotle', 'Plato', 'Socrates', 'Confucius', 'Lao Tzu', 'Laozi', 'Zhuangzi', 'Chuang Tzu', 'Mencius', 'Sun Tzu',
    'Buddha', 'Gautama Buddha', 'Siddhartha Gautama', 'Marcus Aurelius', 'Seneca', 'Lucius Annaeus Seneca', 'Epictetus',
    'Cicero', 'Marcus Tullius Cicero', 'Heraclitus', 'Pythagoras', 'Epicurus', 'Diogenes', 'Homer', 'Sophocles',
    'Euripides', 'Aeschylus', 'Aesop', 'Virgil', 'Ovid', 'Horace', 'Plutarch', 'Publilius Syrus', 'Juvenal',
    'Saint Augustine', 'Augustine of Hippo', 'Thucydides', 'Herodotus', 'Democritus', 'Solomon', 'King Solomon',
    'Hillel', 'Hillel the Elder', 'Patanjali', 'Valmiki', 'Thiruvalluvar', 'Sappho', 'Pericles', 'Julius Caesar',
  ],
  Medieval: [
    'Rumi', 'Jalaluddin Rumi', 'Hafiz', 'Hafez', 'Saadi', 'Omar Khayyam', 'Ibn Arabi', 'Al-Ghazali', 'Ali ibn Abi Talib',
    'Thomas Aquinas', 'Saint Thomas Aquinas', 'Dante Alighieri', 'Geoffrey Chaucer', 'Francis of Assisi',
    'Saint Francis of Assisi', 'Hildegard of Bingen', 'Meister Eckhart', 'Julian of Norwich', 'Maimonides',
    'Moses Maimonides', 'Rabia al-Adawiyya', 'Kabir', 'Li Bai', 'Li Po', 'Du Fu', 'Bodhidharma', 'Dogen', 'Shinran',
    'Ibn Khaldun', 'Avicenna', 'Averroes', 'Petrarch', 'Boethius', 'Bernard of Clairvaux', 'Thomas a Kempis',
    'Christine de Pizan', 'Yoshida Kenko', 'Murasaki Shikibu', 'Shantideva', 'Milarepa', 'Attar of Nishapur',
  ],
  'Early Modern': [
    'William Shakespeare', 'Shakespeare', 'Michel de Montaigne', 'Francis Bacon', 'Rene Descartes', 'Blaise Pascal',
    'Baruch Spinoza', 'John Milton', 'Miguel de Cervantes', 'Niccolo Machiavelli', 'Martin Luther', 'John Donne',
    'Thomas Hobbes', 'John Locke', 'Voltaire', 'Jean-Jacques Rousseau', 'Benjamin Franklin', 'Samuel Johnson',
    'Alexander Pope', 'Jonathan Swift', 'Isaac Newton', 'Galileo Galilei', 'Matsuo Basho', 'Basho', 'Wang Yangming',
    'Thomas Jefferson', 'George Washington', 'John Adams', 'Edmund Burke', 'Adam Smith', 'David Hume', 'Immanuel Kant',
    'Teresa of Avila', 'John of the Cross', 'Francois de La Rochefoucauld', 'Moliere', 'Erasmus', 'Thomas More',
    'Johann Wolfgang von Goethe', 'Mary Wollstonecraft', 'Thomas Paine', 'Jane Austen', 'William Blake', 'Robert Burns',
  ],
  Modern: [
    'Oscar Wilde', 'Mark Twain', 'Ralph Waldo Emerson', 'Henry David Thoreau', 'Walt Whitman', 'Emily Dickinson',
    'Charles Dickens', 'Leo Tolstoy', 'Fyodor Dostoevsky', 'Anton Chekhov', 'Friedrich Nietzsche', 'Soren Kierkegaard',
    'Abraham Lincoln', 'Victor Hugo', 'Charlotte Bronte', 'Emily Bronte', 'George Eliot', 'Lewis Carroll',
    'Rabindranath Tagore', 'Mahatma Gandhi', 'Mohandas Gandhi', 'Swami Vivekananda', 'Kahlil Gibran', 'Khalil Gibran',
    'Albert Einstein', 'Sigmund Freud', 'Winston Churchill', 'Theodore Roosevelt', 'Franklin D Roosevelt',
    'Eleanor Roosevelt', 'Helen Keller', 'Virginia Woolf', 'James Joyce', 'F Scott Fitzgerald', 'Ernest Hemingway',
    'Rainer Maria Rilke', 'Franz Kafka', 'Marcel Proust', 'G K Chesterton', 'George Bernard Shaw', 'Charles Darwin',
    'Frederick Douglass', 'Harriet Tubman', 'Susan B Anthony', 'Robert Louis Stevenson', 'Jules Verne', 'Thomas Edison',
    'Nikola Tesla', 'Marie Curie', 'William James', 'John Muir', 'Herman Melville', 'Edgar Allan Poe', 'Jane Addams',
    'W B Yeats', 'William Butler Yeats', 'Dorothy Parker', 'Will Rogers', 'H L Mencken', 'Robert Frost', 'Langston Hughes',
    'Zora Neale Hurston', 'Antoine de Saint-Exupery', 'Hermann Hesse', 'Fernando Pessoa', 'Anne Frank', 'Dietrich Bonhoeffer',
  ],
  Contemporary: [
    'Martin Luther King Jr', 'Maya Angelou', 'C S Lewis', 'J R R Tolkien', 'George Orwell', 'Albert Camus',
    'Jean-Paul Sartre', 'Simone de Beauvoir', 'Aldous Huxley', 'Kurt Vonnegut', 'Ray Bradbury', 'John Steinbeck',
    'Toni Morrison', 'James Baldwin', 'Audre Lorde', 'Carl Sagan', 'Richard Feynman', 'Nelson Mandela', 'Mother Teresa',
    'John F Kennedy', 'Malcolm X', 'Thich Nhat Hanh', 'Alan Watts', 'Viktor Frankl', 'Viktor E Frankl', 'Erich Fromm',
    'Hannah Arendt', 'Sylvia Plath', 'Charles Bukowski', 'Douglas Adams', 'Terry Pratchett', 'Carl Jung', 'Dalai Lama',
    'The Dalai Lama', 'Desmond Tutu', 'Anais Nin', 'Pablo Neruda', 'Gabriel Garcia Marquez', 'Jorge Luis Borges',
    'Octavio Paz', 'Leo Buscaglia', 'Dale Carnegie', 'Zig Ziglar', 'Jim Rohn', 'Peter Drucker', 'Vince Lombardi',
    'Muhammad Ali', 'Michael Jordan', 'Bruce Lee', 'Groucho Marx', 'Woody Allen', 'Erma Bombeck', 'Rachel Carson',
    'Wendell Berry', 'Mary Oliver', 'Shel Silverstein', 'Dr Seuss', 'Elie Wiesel', 'Abraham Joshua Heschel',
    'Rita Mae Brown', 'Isaac Asimov', 'Stephen Hawking', 'Steve Jobs', 'Ronald Reagan', 'Margaret Thatcher', 'Audrey Hepburn',
  ],
  Present: [
    'Brene Brown', 'Neil Gaiman', 'J K Rowling', 'Paulo Coelho', 'Haruki Murakami', 'Chimamanda Ngozi Adichie',
    'Barack Obama', 'Michelle Obama', 'Malala Yousafzai', 'Rupi Kaur', 'Cheryl Strayed', 'Elizabeth Gilbert',
    'Rick Riordan', 'John Green', 'Eckhart Tolle', 'Mitch Albom', 'Cassandra Clare', 'Suzanne Collins', 'Markus Zusak',
    'Khaled Hosseini', 'Neil deGrasse Tyson', 'Simon Sinek', 'Ryan Holiday', 'Yuval Noah Harari', 'Roxane Gay',
    'Ocean Vuong', 'Matt Haig', 'Glennon Doyle', 'Serena Williams', 'Kobe Bryant', 'Oprah Winfrey', 'Pema Chodron',
    'Tara Brach', 'Jon Kabat-Zinn', 'Adam Grant', 'Angela Duckworth', 'Greta Thunberg', 'Amanda Gorman', 'Kate DiCamillo',
  ],
};
