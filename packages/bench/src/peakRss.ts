import { readFile, writeFile } from 'node:fs/promises';

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

/**
 * Sets the process's high-water mark back to its resident set now (Linux's `clear_refs` 5), so
 * the next peakRssBytes is the peak of what ran in between: a phase's own. False where the
 * kernel or the permissions do not allow it; the peak then runs on from the process's start.
 */
export async function resetPeakRss(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
