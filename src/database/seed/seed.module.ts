import { Global, Module } from '@nestjs/common';
import { DemoSeeder } from './demo-seeder';

@Global()
@Module({ providers: [DemoSeeder], exports: [DemoSeeder] })
export class SeedModule {}
