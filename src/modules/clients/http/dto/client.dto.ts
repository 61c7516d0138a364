import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { MAX_CLIENT_NAME_LENGTH } from '../../domain/client';

const NOT_BLANK = /\S/;

export class CreateClientDto {
  // Not a demo client's name, so "Try it out" creates one instead of meeting the 409.
  @ApiProperty({ example: 'Furniture store «Uyut»', maxLength: MAX_CLIENT_NAME_LENGTH, description: 'unique ignoring case (409 when taken)' })
  @IsString()
  @Length(1, MAX_CLIENT_NAME_LENGTH)
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name: string;
}

export class UpdateClientDto {
  // The demo client 1's own name, so "Try it out" on client 1 does not clash with another client's name.
  @ApiProperty({ example: 'Dental clinic', maxLength: MAX_CLIENT_NAME_LENGTH, description: 'unique ignoring case (409 when another client has it)' })
  @IsString()
  @Length(1, MAX_CLIENT_NAME_LENGTH)
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name: string;
}
