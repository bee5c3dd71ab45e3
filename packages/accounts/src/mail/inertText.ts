/**
 * A stranger's text (a key request's name, application, address) as an operator's mail may show
 * it: readable, but nothing a mail client turns into a link. Mail clients link a scheme
 * (`http://`, `mailto:`), a `www.` and a bare host with a known top-level domain, so every one of
 * those is defanged the way incident reports write them: `hxxp[:]//evil[.]test/phish`. The HTML
 * part escapes markup on top of this (mailMessage.ts), so no tag survives either.
 */
export function inertForMail(text: string): string {
  return (
    text
      // Full-width and ideographic full stops, which some clients read as dots in a host.
      .replace(/[\u3002\uFF0E\uFF61]/g, '[.]')
      .replace(/\bhttp(s?)(?=:)/gi, (_match, secure: string) => `hxxp${secure}`)
      .replace(/\b([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//')
      .replace(/\b(mailto|javascript|vbscript|data|file|tel|sms|callto|ftp|news|irc|xmpp):/gi, '$1[:]')
      // Every dot that a name goes on after: hosts, addresses and `www.` alike (a sentence's full stop is left).
      .replace(/\.(?=[\p{L}\p{N}\p{M}_-])/gu, '[.]')
  );
}
