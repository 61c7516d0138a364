import { defaultStatusProblem } from './lead-status';

describe('defaultStatusProblem', () => {
  it('lets a new in-progress status be the default, but no other category', () => {
    expect(defaultStatusProblem(null, { category: 'in-progress', isDefault: true })).toBeNull();
    expect(defaultStatusProblem(null, { category: 'qualified', isDefault: true })).toEqual({
      field: 'category',
      message: expect.stringContaining('in-progress'),
    });
    expect(defaultStatusProblem(null, { category: 'qualified' })).toBeNull();
  });

  it('never leaves the catalogue without a default', () => {
    expect(defaultStatusProblem({ category: 'in-progress', isDefault: true }, { isDefault: false })).toEqual({
      field: 'isDefault',
      message: expect.stringContaining('another status'),
    });
    expect(defaultStatusProblem({ category: 'in-progress', isDefault: true }, { category: 'closed' })).toEqual({
      field: 'category',
      message: expect.any(String),
    });
    expect(defaultStatusProblem({ category: 'in-progress', isDefault: true }, { isDefault: true })).toBeNull();
  });

  it('lets a non-default status become the default only when it is (or becomes) in-progress', () => {
    expect(defaultStatusProblem({ category: 'rejected', isDefault: false }, { isDefault: true })).toEqual({ field: 'isDefault', message: expect.any(String) });
    expect(defaultStatusProblem({ category: 'rejected', isDefault: false }, { isDefault: true, category: 'in-progress' })).toBeNull();
    expect(defaultStatusProblem({ category: 'rejected', isDefault: false }, { category: 'closed' })).toBeNull();
  });
});
