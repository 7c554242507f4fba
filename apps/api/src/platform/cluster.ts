import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/**
 * WEB_CONCURRENCY=N (decision 043): the primary process forks N workers that share one listening
 * port (node:cluster hands the connections round), keeps N of them alive and stops them all on
 * SIGTERM or SIGINT. Each worker is a whole API process: its own pool, job runner and live events.
 */

/** A worker that dies this soon after it started counts as a crash loop, and the wait grows. */
const healthyUptimeMs = 10_000;
const firstRestartDelayMs = 100;
const maxRestartDelayMs = 10_000;
/** How long a stopping worker may take to finish its requests and jobs before it is killed. */
export const workerStopGraceMs = 30_000;

export interface Supervisor {
  /** Resolves with the port once every worker has listened for the first time. */
  readonly listening: Promise<number>;
  /** Stops restarting, asks every worker to stop, and kills those that outlast the grace period. */
  stop(): Promise<void>;
}

export function superviseWorkers(count: number, log: Logger): Supervisor {
  let stopping = false;
  /** Quick deaths in a row, for the restart delay; a worker that stayed up resets it. */
  let quickDeaths = 0;
  const restartTimers = new Set<NodeJS.Timeout>();
  let firstListening = 0;
  let resolveListening: (port: number) => void = () => undefined;
  const listening = new Promise<number>((resolve) => (resolveListening = resolve));

  const fork = (): Worker => {
    const startedAt = Date.now();
    const worker = cluster.fork();
    let listened = false;
    worker.on('listening', (address) => {
      if (listened) return;
      listened = true;
      log.info({ workerPid: worker.process.pid }, 'worker listening');
      firstListening++;
      if (firstListening === count) resolveListening(address.port);
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      quickDeaths = Date.now() - startedAt < healthyUptimeMs ? quickDeaths + 1 : 0;
      const restartInMs = quickDeaths === 0 ? 0 : Math.min(firstRestartDelayMs * 2 ** (quickDeaths - 1), maxRestartDelayMs);
      log.error({ workerPid: worker.process.pid, code, signal, restartInMs }, 'a worker died; starting another');
      const timer = setTimeout(() => {
        restartTimers.delete(timer);
        // A replacement of a worker that never listened counts toward the first start in its place.
        if (!stopping) fork();
      }, restartInMs);
      restartTimers.add(timer);
    });
    return worker;
  };

  for (let index = 0; index < count; index++) fork();

  return {
    listening,
    async stop() {
      stopping = true;
      for (const timer of restartTimers) clearTimeout(timer);
      const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.isDead()) return resolve();
              const kill = setTimeout(() => {
                log.error({ workerPid: worker.process.pid }, 'a worker did not stop in time; killing it');
                worker.process.kill('SIGKILL');
              }, workerStopGraceMs);
              worker.once('exit', () => {
                clearTimeout(kill);
                resolve();
              });
              worker.process.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
