import { SnakeNamingStrategy, snakeCase } from './snake-naming.strategy';

describe('SnakeNamingStrategy', () => {
  const naming = new SnakeNamingStrategy();

  it('maps camelCase properties to snake_case columns, single capitals included', () => {
    expect(snakeCase('lastName')).toBe('last_name');
    expect(snakeCase('socialAId')).toBe('social_a_id');
    expect(snakeCase('externalIdCrmA')).toBe('external_id_crm_a');
    expect(naming.columnName('webRtcIsEnabled', undefined, [])).toBe('web_rtc_is_enabled');
  });

  it('keeps a column name given in the entity', () => {
    expect(naming.columnName('position', 'pos', [])).toBe('pos');
  });

  it("names unique constraints as PostgreSQL does (<table>_<columns>_key), in the columns' order", () => {
    expect(naming.uniqueConstraintName('sip_endpoint', ['number'])).toBe('sip_endpoint_number_key');
    expect(naming.uniqueConstraintName('public.call', ['order_id', 'platform_call_id'])).toBe('call_order_id_platform_call_id_key');
  });
});
