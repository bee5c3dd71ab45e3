// linkify-it (the autolinker markdown-it uses) ships no types: the part the tests call.
declare module 'linkify-it' {
  export default class LinkifyIt {
    match(text: string): { url: string; text: string }[] | null;
  }
}
