import { readFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { counted } from '@quotes/corpus/terminal-text';
import { createOperatorApi } from '@quotes/accounts';
import { OperatorError } from '@quotes/accounts';
import { requireText } from '@quotes/accounts';
import { deliveryLine, withMailer } from './cliMail.js';
import type { CliContext } from './keyCommands.js';
import { textTable } from './textTable.js';

/** A notice is a short text, not an attachment: 100 KB is far above any terms announcement. */
const maxNoticeBytes = 100_000;

async function noticeText(file: string): Promise<string> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new OperatorError(`--file ${JSON.stringify(file)} cannot be read`);
  }
  if (size > maxNoticeBytes) throw new OperatorError(`--file is ${size} bytes; a notice is at most ${maxNoticeBytes}`);
  const text = (await readFile(file, 'utf8')).replace(/\r\n/g, '\n').trim();
  if (text === '') throw new OperatorError('--file is empty');
  // Tabs and line breaks are the text's own; any other control character is refused.
  if (/[^\P{Cc}\t\n]/u.test(text))
    throw new OperatorError('--file contains control characters (escape sequences?); send plain text');
  return text;
}

export function registerNotifyCommands(program: Command, cli: CliContext): void {
  const notify = program.command('notify').description('Announcements by e-mail to key owners');

  notify
    .command('terms')
    .description('Mail a change of the terms to every owner of an active key, each address once')
    .requiredOption('--subject <text>', 'the subject line (1-200 characters)')
    .requiredOption('--file <path>', 'the message, plain UTF-8 text')
    .option('--dry-run', 'list who would get it, send nothing')
    .option('--reason <text>', 'why, recorded in the audit (at most 2000 characters)')
    .action(async (options: { subject: string; file: string; dryRun?: boolean; reason?: string }) => {
      const subject = requireText(options.subject, '--subject', 200);
      const text = await noticeText(options.file);
      const owners = await cli.run((database) => createOperatorApi(database).activeOwners());
      const list = textTable(
        ['EMAIL', 'CLIENTS', 'ACTIVE KEYS'],
        owners.map((owner) => [owner.email, owner.clients.join(', '), String(owner.keyIds.length)]),
      );
      if (options.dryRun) {
        cli.out(
          `Dry run: ${JSON.stringify(subject)} would go to ${counted(owners.length, 'address', 'addresses')}:\n${list}`,
        );
        return;
      }
      if (owners.length === 0) {
        cli.out('No owner of an active key has an e-mail address: nothing sent.');
        return;
      }
      const config = cli.config();
      await withMailer(config, async (mailer) => {
        cli.out(
          `Sending ${JSON.stringify(subject)} to ${counted(owners.length, 'address', 'addresses')} through ${mailer.destination}:`,
        );
        const sentTo: string[] = [];
        try {
          for (const owner of owners) {
            cli.out(deliveryLine(await mailer.send({ to: owner.email, subject, text })));
            sentTo.push(owner.email);
          }
        } finally {
          // Recorded whatever happened: who got it is what the audit must say.
          await cli.run((database) =>
            createOperatorApi(database, { reason: options.reason }).recordAction({
              action: 'notify terms',
              target: `${owners.length} active key owners`,
              before: null,
              after: { subject, sent: sentTo.length, of: owners.length, to: sentTo },
            }),
          );
        }
      });
    });
}
