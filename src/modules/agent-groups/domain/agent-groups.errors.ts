import { errorCodes } from '../../../common/domain-error';

/** Error codes of the agent groups domain. */
export const AGENT_GROUP_ERRORS = errorCodes({
  NOT_FOUND: 'AGENT_GROUP_NOT_FOUND',
  /** agentIds names users that do not exist. */
  UNKNOWN_AGENTS: 'AGENT_GROUP_UNKNOWN_AGENTS',
});
