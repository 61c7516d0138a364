import { confineToOrders } from './call';

describe('confineToOrders', () => {
  it("keeps only the client's orders of an orderIds filter", () => {
    expect(confineToOrders({ orderIds: [1, 5, 9], statusIds: [2] }, [5, 7, 9])).toEqual({ orderIds: [5, 9], statusIds: [2] });
  });

  it("gives a list by leads the client's orders as a condition", () => {
    expect(confineToOrders({ leadIds: [11] }, [5, 7])).toEqual({ leadIds: [11], orderIds: [5, 7] });
  });

  it('is null when no order is left: other orders only, or a client without orders', () => {
    expect(confineToOrders({ orderIds: [1, 2] }, [5])).toBeNull();
    expect(confineToOrders({ leadIds: [11] }, [])).toBeNull();
  });
});
