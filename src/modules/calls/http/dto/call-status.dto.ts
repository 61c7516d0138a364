import { CategoryField, CodeField, FlagField, TitleField } from '../../../leads/http/dto/status.dto';
import { CALL_STATUS_CATEGORIES, CallStatusCategory } from '../../domain/call-status';

const CALLBACK_DOC = 'the customer asked to be called back (may reset the attempt count)';

export class CreateCallStatusDto {
  @CodeField(true, 'answering-machine') code: string;
  @TitleField(true, 'Answering machine') title: string;
  @CategoryField(true, CALL_STATUS_CATEGORIES) category: CallStatusCategory;
  @FlagField(CALLBACK_DOC) isCallback?: boolean;
}

export class UpdateCallStatusDto {
  @CodeField(false) code?: string;
  @TitleField(false) title?: string;
  @CategoryField(false, CALL_STATUS_CATEGORIES) category?: CallStatusCategory;
  @FlagField(CALLBACK_DOC) isCallback?: boolean;
}
