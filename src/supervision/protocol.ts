// What `npm start`'s supervisor (src/tooling/supervisor.ts) and the API and worker processes it runs tell
// each other over their IPC channel: a child says when it serves; the API hears the state of every
// process, which GET /readyz reports. Without a supervisor (no IPC channel) both are no-ops.

export type ProcessState = {
  /** `restarting`: exited unexpectedly, waiting out its backoff or starting again. */
  state: 'starting' | 'up' | 'restarting' | 'stopping';
  pid: number | null;
  /** Restarts since `npm start` began, the one under way included. */
  restarts: number;
  /** How it last ended unexpectedly (`exit code 1`, `signal SIGKILL`, `failed to start: …`), or null. */
  last_exit: string | null;
  /** When it entered this state (ISO 8601). */
  since: string;
};

export type ProcessStates = Record<string, ProcessState>;

const READY = 'video-api:ready';
const STATES = 'video-api:process-states';

type StatesMessage = { type: typeof STATES; processes: ProcessStates };

/** Tells the supervisor, if any, that this process now serves (the API listens, the worker polls). */
export function tellSupervisorReady(): void {
  process.send?.({ type: READY });
}

export const isReadyMessage = (message: unknown): boolean => (message as { type?: unknown } | null)?.type === READY;

export const processStatesMessage = (processes: ProcessStates): StatesMessage => ({ type: STATES, processes });

let latest: ProcessStates | null = null;

/** In the API process under `npm start`: keep the latest process states the supervisor sends. */
export function listenForProcessStates(): void {
  if (!process.send) return;
  process.on('message', (message: unknown) => {
    if ((message as StatesMessage | null)?.type === STATES) latest = (message as StatesMessage).processes;
  });
}

/** The processes `npm start` runs and their states, or null when this API is not run by it. */
export const supervisedProcesses = (): ProcessStates | null => latest;
