/** A business whose campaigns (orders) the call center runs; a client key reaches only its orders and what lies under them. */
export interface Client {
  id: number;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export const MAX_CLIENT_NAME_LENGTH = 255;
