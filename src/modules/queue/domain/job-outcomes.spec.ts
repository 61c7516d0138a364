import type { Job } from 'pg-boss';
import { fetchOutcomes, settledResults } from './job-outcomes';
import type { JobOutcome } from './queue-definition';

const job = (id: string, retryCount = 0) => ({ id, retryCount, data: {} }) as Job<object>;

describe('a fetch of jobs, handled and settled', () => {
  const jobs = [job('a'), job('b', 2), job('c')];

  it('hands the whole fetch to a batch handler and keeps its outcome per job', async () => {
    const handleBatch = jest.fn((js: Job<object>[]): Promise<JobOutcome[]> =>
      Promise.resolve(js.map((j) => (j.id === 'b' ? { ok: false, error: 'x' } : { ok: true }))),
    );
    const handle = jest.fn();
    expect(await fetchOutcomes({ handle, handleBatch }, jobs)).toEqual([{ ok: true }, { ok: false, error: 'x' }, { ok: true }]);
    expect(handleBatch).toHaveBeenCalledTimes(1);
    expect(handleBatch).toHaveBeenCalledWith(jobs);
    expect(handle).not.toHaveBeenCalled();
  });

  it('fails every job of a batch whose handler throws', async () => {
    const error = new Error('batch failed');
    const outcomes = await fetchOutcomes({ handle: jest.fn(), handleBatch: () => Promise.reject(error) }, jobs);
    expect(outcomes).toEqual(jobs.map(() => ({ ok: false, error })));
  });

  it('without a batch handler, runs each job on its own: one throwing fails only itself', async () => {
    const error = new Error('one job');
    const handle = jest.fn((j: Job<object>) => (j.id === 'c' ? Promise.reject(error) : Promise.resolve(j.id === 'a' ? { made: 1 } : undefined)));
    expect(await fetchOutcomes({ handle }, jobs)).toEqual([
      { ok: true, output: { made: 1 } },
      { ok: true, output: undefined },
      { ok: false, error },
    ]);
  });

  it("settles completed and failed jobs by id, a failure's output being its class and code, never its message; a job without an outcome fails", () => {
    const shared = Object.assign(new Error('Failing row contains (+79161234567)'), { code: '23514' });
    const { results, failures } = settledResults(
      [job('a'), job('b'), job('c'), job('d')],
      [
        { ok: true, output: { leadId: 1 } },
        { ok: false, error: shared },
        { ok: false, error: shared },
      ],
    );
    expect(results).toEqual([
      { id: 'a', status: 'completed', output: { leadId: 1 } },
      { id: 'b', status: 'failed', output: { error: 'Error 23514' } },
      { id: 'c', status: 'failed', output: { error: 'Error 23514' } },
      { id: 'd', status: 'failed', output: { error: 'Error' } },
    ]);
    expect(JSON.stringify(results)).not.toContain('7916');
    // One entry per error: the jobs one error failed together are logged on one line.
    expect([...failures.values()].map((js) => js.map((j) => j.id))).toEqual([['b', 'c'], ['d']]);
  });
});
