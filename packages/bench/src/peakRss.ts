import { readFile } from 'node:fs/promises';

/** Peak resident set size of a live process in bytes (the kernel's high-water mark, VmHWM). */
export async function peakRssBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
    return match?.[1] ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
