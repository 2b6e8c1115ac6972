/** Clock settings as requests and scenario files give them (DESIGN.md section 4 "Clock"). */
import { z } from '@hono/zod-openapi';
import {
  CLOCK_FLOOR_MESSAGE,
  CLOCK_LIMIT_MESSAGE,
  MAX_VIRTUAL_MS,
  MIN_VIRTUAL_MS,
  parseClockMode,
} from './clock-mode.js';

export const ClockModeSchema = z
  .string()
  .refine((v) => parseClockMode(v) !== undefined, {
    message: "expected 'manual', 'realtime' or 'scaled:N' with N > 0",
  })
  .openapi({ example: 'manual' });

export const Instant = z.iso
  .datetime({ offset: true })
  .openapi({ example: '2026-01-01T00:00:00.000Z' });

/** An instant a clock may be put at: from MIN_VIRTUAL_MS to MAX_VIRTUAL_MS (clock-mode.ts). */
export const ClockInstant = z.iso
  .datetime({ offset: true })
  .refine((v) => Date.parse(v) >= MIN_VIRTUAL_MS, { message: CLOCK_FLOOR_MESSAGE })
  .refine((v) => Date.parse(v) <= MAX_VIRTUAL_MS, { message: CLOCK_LIMIT_MESSAGE })
  .openapi({ example: '2026-01-01T00:00:00.000Z' });
