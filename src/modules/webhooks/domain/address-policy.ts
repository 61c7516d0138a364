import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may reach: globally routable unicast only. ipaddr.js classifies each into its IANA special-purpose range
 * (loopback, private, link-local, CGNAT, documentation, ...) and anything but `unicast` is refused; IPv4-mapped IPv6 is judged as its IPv4.
 */
export function addressRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  return ipaddr.process(address).range();
}

/** Whether the address is publicly routable unicast (the only kind a webhook may reach by default). */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/** Why an address is refused, or null when it may be reached. */
export function refusedAddressReason(address: string, allowPrivate: boolean): string | null {
  const range = addressRange(address);
  if (range === null) return `${address} is not an IP address`;
  if (allowPrivate || range === 'unicast') return null;
  return `resolves to a ${range} address (${address}), which webhooks may not reach`;
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or null for a name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : null;
}
