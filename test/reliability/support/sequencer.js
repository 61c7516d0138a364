const Sequencer = require('@jest/test-sequencer').default;

// The log check reads the output of every scenario before it, so it runs last; the heavy ones
// (crash, burst) after the quick ones, so a broken set-up shows early.
const ORDER = ['holiday-parsing', 'input-limits', 'hostile', 'shutdown', 'startup', 'pool', 'crash', 'burst', 'fleet', 'logs'];
const rank = (p) => {
  const i = ORDER.findIndex((name) => p.endsWith(`${name}.rel-spec.ts`));
  return i === -1 ? ORDER.length - 1 : i;
};

class ReliabilitySequencer extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  }
}

module.exports = ReliabilitySequencer;
