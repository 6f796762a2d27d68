// Setup file of the stack project: a test fails when an answer it caused does not match the OpenAPI
// document (test/support/contract.ts); each file's counts go to the run's report (globalSetup).
import { afterAll, afterEach, expect, inject } from 'vitest';
import { saveCounts, seen } from './contract.js';

const takeViolations = () => seen.violations.splice(0);

afterEach(() => {
  expect(takeViolations(), 'answers that do not match the OpenAPI document').toEqual([]);
});

afterAll((suite) => {
  saveCounts(inject('dataDir'), (suite as { filepath?: string }).filepath ?? 'unknown');
  expect(takeViolations(), 'answers that do not match the OpenAPI document').toEqual([]);
});
