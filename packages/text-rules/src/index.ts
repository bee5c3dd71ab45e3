export { type CsvCell, csvLine, csvTable, formulaSafe, withoutFormulaGuard } from './csvWriter.js';
export { Html, html, jsonIsland } from './html.js';
export { visibleLines, visibleText } from './visibleText.js';
