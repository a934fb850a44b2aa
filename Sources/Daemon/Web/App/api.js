// The daemon's typed wire methods over HTTP: the same methods, params and results as `umctl`
// (docs/protocol.md). No rules here: the page shows what the daemon answers.

export class DaemonError extends Error {
  constructor(error) {
    super(error.message);
    this.code = error.data?.code ?? error.code;
  }
}

export async function call(method, params = {}) {
  const response = await fetch(`/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
    credentials: 'same-origin',
  });
  if (!response.ok) throw new DaemonError({ message: (await response.text()).trim(), code: response.status });
  const answer = await response.json();
  if (answer.error) throw new DaemonError(answer.error);
  return answer.result;
}

// The daemon's events (`umctl watch`), as Server-Sent Events; the browser reconnects by itself.
// `onState` hears 'live' once the stream is open and 'offline' while it is not.
export function follow(onEvent, onState) {
  const source = new EventSource('/events');
  source.onopen = () => onState('live');
  source.onerror = () => onState('offline');
  source.onmessage = (message) => onEvent(JSON.parse(message.data));
  return source;
}
