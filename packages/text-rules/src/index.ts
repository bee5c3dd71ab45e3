export { type CsvCell, csvLine, csvTable, formulaSafe, withoutFormulaGuard } from './csvWriter.js';
export { Html, html, jsonIsland } from './html.js';
export {
  checkTextField,
  refusedCharacterIn,
  type TextFieldCheck,
  type TextFieldRule,
  textFieldHint,
  withRefusedShown,
} from './textField.js';
export { visibleLines, visibleText } from './visibleText.js';
export { type ChartSpec, chartFigure, lastDays, lastHours, servedAndRefused } from './chartData.js';
export { chartSvg } from './chartSvg.js';
export { siteHeader } from './siteHeader.js';
export {
  minutesIn,
  type ProofOfWorkAsk,
  proofOfWorkAssets,
  proofOfWorkField,
  proofOfWorkHead,
  proofOfWorkSetupScript,
  proofOfWorkWithoutScript,
  proofRefusalWords,
} from './proofOfWorkField.js';
