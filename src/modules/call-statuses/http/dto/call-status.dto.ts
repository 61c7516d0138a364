import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { Optional } from '../../../../common/presence';
import { RedialRuleDto } from '../../../dialing/http/redial-rule.dto';
import { CategoryField, CodeField, FlagField, TitleField } from '../../../leads/http/dto/status.dto';
import { CALL_STATUS_CATEGORIES, CallStatusCategory } from '../../domain/call-status';

const CALLBACK_DOC = 'the customer asked to be called back (may reset the attempt count)';
const REDIAL_DOC =
  "what a call ending in this status does to the lead's next call; an order's redialRules override it. On create, left out: no rule (the attempt group's intervals); on update, the whole rule is replaced";

/** The status's redial rule (RedialRuleDto). */
const RedialField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: RedialRuleDto, description: REDIAL_DOC }),
    Optional(),
    IsObject(),
    ValidateNested(),
    Type(() => RedialRuleDto),
  );

const OPT_OUT_DOC = "the person asked not to be called: a call with it puts the number on the order's client's do-not-call list (global without a client)";

export class CreateCallStatusDto {
  @CodeField(true, 'answering-machine') code: string;
  @TitleField(true, 'Answering machine') title: string;
  @CategoryField(true, CALL_STATUS_CATEGORIES) category: CallStatusCategory;
  @FlagField(CALLBACK_DOC) isCallback?: boolean;
  @FlagField(OPT_OUT_DOC) isOptOut?: boolean;
  @RedialField() redial?: RedialRuleDto;
}

export class UpdateCallStatusDto {
  @CodeField(false) code?: string;
  @TitleField(false) title?: string;
  @CategoryField(false, CALL_STATUS_CATEGORIES) category?: CallStatusCategory;
  @FlagField(CALLBACK_DOC) isCallback?: boolean;
  @FlagField(OPT_OUT_DOC) isOptOut?: boolean;
  @RedialField() redial?: RedialRuleDto;
}
