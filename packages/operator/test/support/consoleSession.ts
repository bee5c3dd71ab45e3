import type { RunningConsole } from '../../src/console/consoleServer.js';

export interface Answer {
  status: number;
  body: string;
}

/** The console over real HTTP as a signed-in operator's browser: the session's cookie, and its forms' token on every post. */
export interface ConsoleSession {
  get(path: string): Promise<Answer>;
  /** A form sent as the browser sends it, with the session's CSRF token added. */
  post(path: string, form: Record<string, string>): Promise<Answer>;
}

/** Signs in through the console's one-time link, as `quotes-admin console` prints it, and reads the forms' token off its front page. */
export async function signIntoConsole(running: RunningConsole): Promise<ConsoleSession> {
  const signIn = await fetch(running.signInUrl, { redirect: 'manual' });
  const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
  const get = async (path: string): Promise<Answer> => {
    const answer = await fetch(`${running.url}${path}`, { headers: { cookie }, redirect: 'manual' });
    return { status: answer.status, body: await answer.text() };
  };
  const csrf = /name="_csrf" value="([^"]+)"/.exec((await get('/')).body)![1]!;
  return {
    get,
    async post(path, form) {
      const answer = await fetch(`${running.url}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form, _csrf: csrf }),
        redirect: 'manual',
      });
      return { status: answer.status, body: await answer.text() };
    },
  };
}
