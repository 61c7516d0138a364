import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsString, IsUrl, MaxLength } from 'class-validator';
import { Optional } from '../../../../common/presence';
import { CONSENT_EVIDENCE_URL_MAX, CONSENT_SOURCES, CONSENT_TEXT_MAX, CONSENT_TOKEN_MAX, type ConsentSource } from '../../domain/consent';

/** A lead's consent to be called (the domain checks givenAt against now: checkConsent). */
export class ConsentDto {
  @ApiProperty({ description: 'ISO 8601 date-time the consent was given; not in the future', example: '2026-03-04T05:06:07+00:00' })
  @IsString()
  @IsISO8601({ strict: true })
  givenAt: string;

  @ApiProperty({ enum: CONSENT_SOURCES, example: 'web_form' })
  @IsIn(CONSENT_SOURCES)
  source: ConsentSource;

  @ApiPropertyOptional({
    description: 'https: URL of the evidence (a TrustedForm-style certificate)',
    example: 'https://cert.example.com/0a1b2c3d',
    maxLength: CONSENT_EVIDENCE_URL_MAX,
  })
  @Optional()
  @IsString()
  @MaxLength(CONSENT_EVIDENCE_URL_MAX)
  // Evidence is fetched by auditors: only https (a plain http: or a bare host gets this message, not "must be a URL address").
  @IsUrl({ protocols: ['https'], require_protocol: true, require_tld: false }, { message: 'evidenceUrl must be an https: URL (https://...)' })
  evidenceUrl?: string;

  @ApiPropertyOptional({ description: 'A LeadiD-style consent token', example: 'a1b2c3d4-e5f6', maxLength: CONSENT_TOKEN_MAX })
  @Optional()
  @IsString()
  @MaxLength(CONSENT_TOKEN_MAX)
  token?: string;

  @ApiPropertyOptional({ description: 'The wording agreed to', example: 'I agree to be called about my request.', maxLength: CONSENT_TEXT_MAX })
  @Optional()
  @IsString()
  @MaxLength(CONSENT_TEXT_MAX)
  text?: string;
}
