import { CategoryField, CodeField, FlagField, TitleField } from '../../../leads/http/dto/status.dto';
import { CALL_STATUS_CATEGORIES, CallStatusCategory } from '../../domain/call-status';

const CALLBACK_DOC = 'the customer asked to be called back (may reset the attempt count)';
const OPT_OUT_DOC = "the person asked not to be called: a call with it puts the number on the order's client's do-not-call list (global without a client)";

export class CreateCallStatusDto {
  @CodeField(true, 'answering-machine') code: string;
  @TitleField(true, 'Answering machine') title: string;
  @CategoryField(true, CALL_STATUS_CATEGORIES) category: CallStatusCategory;
  @FlagField(CALLBACK_DOC) isCallback?: boolean;
  @FlagField(OPT_OUT_DOC) isOptOut?: boolean;
}

export class UpdateCallStatusDto {
  @CodeField(false) code?: string;
  @TitleField(false) title?: string;
  @CategoryField(false, CALL_STATUS_CATEGORIES) category?: CallStatusCategory;
  @FlagField(CALLBACK_DOC) isCallback?: boolean;
  @FlagField(OPT_OUT_DOC) isOptOut?: boolean;
}
