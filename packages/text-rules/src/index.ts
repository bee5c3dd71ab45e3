export { Html, html, jsonIsland } from './html.js';
export {
  checkTextField,
  refusedCharacterIn,
  type TextFieldCheck,
  type TextFieldRule,
  textFieldHint,
  withRefusedShown,
} from './textField.js';
