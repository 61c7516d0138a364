import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { CustomFieldType, Essence } from './domain/custom-value';
import { CustomFieldsRepository } from './persistence/custom-fields.repository';

interface DemoField {
  essence: Essence;
  title: string;
  type: CustomFieldType;
  sort: number;
  params?: { code: string; title: string; sort: number }[];
}

/** One field of every type for leads and for orders. Other seeds find them by (essence, title). */
export const DEMO_CUSTOM_FIELDS: DemoField[] = [
  { essence: 'leads', title: 'Город', type: 'string', sort: 10 },
  { essence: 'leads', title: 'Бюджет', type: 'int', sort: 20 },
  { essence: 'leads', title: 'Площадь', type: 'float', sort: 30 },
  { essence: 'leads', title: 'Дата визита', type: 'date', sort: 40 },
  { essence: 'leads', title: 'Перезвонить в', type: 'datetime', sort: 50 },
  { essence: 'leads', title: 'Согласие на обработку', type: 'bool', sort: 60 },
  {
    essence: 'leads',
    title: 'Интерес',
    type: 'select',
    sort: 70,
    params: [
      { code: 'flat', title: 'Квартира', sort: 10 },
      { code: 'house', title: 'Дом', sort: 20 },
      { code: 'course', title: 'Курс', sort: 30 },
      { code: 'consultation', title: 'Консультация', sort: 40 },
    ],
  },
  {
    essence: 'leads',
    title: 'Каналы связи',
    type: 'multiselect',
    sort: 80,
    params: [
      { code: 'phone', title: 'Телефон', sort: 10 },
      { code: 'sms', title: 'SMS', sort: 20 },
      { code: 'email', title: 'E-mail', sort: 30 },
      { code: 'messenger', title: 'Мессенджер', sort: 40 },
    ],
  },
  { essence: 'orders', title: 'Менеджер клиента', type: 'string', sort: 10 },
  { essence: 'orders', title: 'План лидов в месяц', type: 'int', sort: 20 },
  { essence: 'orders', title: 'Ставка за лид', type: 'float', sort: 30 },
  { essence: 'orders', title: 'Дата запуска', type: 'date', sort: 40 },
  { essence: 'orders', title: 'Последняя сверка', type: 'datetime', sort: 50 },
  { essence: 'orders', title: 'Нужен ежедневный отчёт', type: 'bool', sort: 60 },
  {
    essence: 'orders',
    title: 'Ниша',
    type: 'select',
    sort: 70,
    params: [
      { code: 'real_estate', title: 'Недвижимость', sort: 10 },
      { code: 'education', title: 'Образование', sort: 20 },
      { code: 'medicine', title: 'Медицина', sort: 30 },
      { code: 'support', title: 'Поддержка', sort: 40 },
    ],
  },
  {
    essence: 'orders',
    title: 'Рабочие языки',
    type: 'multiselect',
    sort: 80,
    params: [
      { code: 'ru', title: 'Русский', sort: 10 },
      { code: 'en', title: 'English', sort: 20 },
    ],
  },
];

/** Demo custom fields (seed order 20: after reference data, before orders and leads). */
@Injectable()
export class CustomFieldsDemoSeed {
  constructor(seeder: DemoSeeder, repo: CustomFieldsRepository) {
    seeder.add({
      name: 'custom-fields',
      order: 20,
      run: async (m: EntityManager) => {
        for (const f of DEMO_CUSTOM_FIELDS) {
          await repo.insert(m, { title: f.title, type: f.type, essence: f.essence, sort: f.sort }, f.params ?? []);
        }
      },
    });
  }
}
