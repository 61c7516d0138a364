/** The script agents follow in an order's calls (orders refer to it by callScenarioId). */
export interface CallScenario {
  id: number;
  title: string;
  description: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type CallScenarioFields = Pick<CallScenario, 'title' | 'description' | 'isActive'>;

export const MAX_TITLE_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 10_000;
