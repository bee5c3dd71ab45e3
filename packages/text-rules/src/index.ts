export { Html, html, jsonIsland } from './html.js';
