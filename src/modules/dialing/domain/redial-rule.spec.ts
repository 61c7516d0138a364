import { type RedialRule, redialRuleFor } from './redial-rule';

describe('redialRuleFor', () => {
  it("the order's rule over the status's own; a rule that says nothing is none", () => {
    const own: RedialRule = { afterMinutes: 15, maxAttempts: null, final: false };
    expect(redialRuleFor(3, [], own)).toEqual(own);
    expect(redialRuleFor(3, [{ statusId: 3, afterMinutes: null, maxAttempts: null, final: true }], own)).toEqual({
      afterMinutes: null,
      maxAttempts: null,
      final: true,
    });
    expect(redialRuleFor(3, [{ statusId: 4, afterMinutes: 1, maxAttempts: null, final: false }], own)).toEqual(own);
    expect(redialRuleFor(3, [{ statusId: 3, afterMinutes: null, maxAttempts: null, final: false }], own)).toBeNull();
    expect(redialRuleFor(3, [], null)).toBeNull();
  });
});
