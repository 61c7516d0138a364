/** Who works a set of orders: the users and agent groups assigned to them, each id once, ascending. */
export interface OrderAssignments {
  agentUserIds: number[];
  agentGroupIds: number[];
}
