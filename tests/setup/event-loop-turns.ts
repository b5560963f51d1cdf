/**
 * Counts the turns of the event loop while some work runs: what a request waiting beside it needs. On SQLite, whose
 * statements block the process, work that never yields (app/utils/event-loop.ts) gives none, however long it takes.
 */
export function countEventLoopTurns(): { stop(): number } {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop() {
      running = false;
      return turns;
    },
  };
}
