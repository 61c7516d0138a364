import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';

/**
 * V8's sampling CPU profiler, the one `node --cpu-prof` starts, driven over the inspector so that
 * the profile covers the load window only (not start-up or seeding). The file is a standard
 * `.cpuprofile` (Chrome DevTools, speedscope); profile-summary.ts reads it.
 */
export function profilerCommands(): Record<string, (arg: unknown) => Promise<unknown>> {
  let session: Session | null = null;
  return {
    'profile-start': async () => {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      // 200 us between samples: fine enough for a ~1 ms request, cheap enough not to distort it much.
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
    },
    'profile-stop': async (file) => {
      if (!session) throw new Error('profiler not started');
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      session = null;
      await writeFile(String(file), JSON.stringify(profile));
      return file;
    },
  };
}
