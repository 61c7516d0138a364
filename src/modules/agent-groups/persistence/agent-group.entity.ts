import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { UserEntity } from '../../users/persistence/user.entity';
import type { AgentGroupNames } from '../domain/agent-group';

/** `agent_group`: a named group of agents; `names` holds the title per interface language. */
@Entity('agent_group')
export class AgentGroupEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'agent_group_pkey' })
  id: number;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  names: Partial<AgentGroupNames>;

  @Column({ type: 'integer', default: 0 })
  createdBy: number;

  @Column({ type: 'integer', default: 0 })
  updatedBy: number;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/** `agent_group_member`: which users are in which group. */
@Entity('agent_group_member')
@Index('agent_group_member_user_idx', ['userId', 'groupId'])
export class AgentGroupMemberEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'agent_group_member_pkey' })
  @ForeignKey(() => AgentGroupEntity, { name: 'agent_group_member_group_id_fkey', onDelete: 'CASCADE' })
  groupId: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'agent_group_member_pkey' })
  @ForeignKey(() => UserEntity, { name: 'agent_group_member_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;
}
