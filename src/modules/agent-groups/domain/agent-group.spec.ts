import { completeNames, mergeNames, missingIds, normaliseAgentIds } from './agent-group';

describe('agent group rules', () => {
  it('treats membership as an ascending set', () => {
    expect(normaliseAgentIds([5, 2, 5, 9, 2])).toEqual([2, 5, 9]);
    expect(normaliseAgentIds([])).toEqual([]);
  });

  it('names the missing ids once, ascending', () => {
    expect(missingIds([7, 3, 4, 7, 10], [3, 4])).toEqual([7, 10]);
    expect(missingIds([1, 2], [2, 1])).toEqual([]);
  });

  it('merges names per language', () => {
    expect(mergeNames({ ru: 'Продажи', gb: 'Sales' }, { gb: 'Sales team' })).toEqual({ ru: 'Продажи', gb: 'Sales team' });
    expect(mergeNames({ ru: 'Продажи' }, {})).toEqual({ ru: 'Продажи', gb: '' });
    expect(completeNames(null)).toEqual({ ru: '', gb: '' });
  });
});
