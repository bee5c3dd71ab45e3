// The rules of keys, plans, filters and calendars alone: no data access, no mail (the mock bundles them).
export * from './domain/allowancePeriod.js';
export * from './domain/allowanceWording.js';
export * from './domain/allowedOrigins.js';
export * from './domain/calendarMonth.js';
export * from './domain/callSightings.js';
export * from './domain/clientNetwork.js';
export * from './domain/clock.js';
export * from './domain/filterResolution.js';
export * from './domain/keyExpiry.js';
export * from './domain/keyRequestDecision.js';
export * from './domain/keyStanding.js';
export * from './domain/pagination.js';
export * from './domain/plans.js';
export * from './domain/usageSignals.js';
export * from './domain/calendarDate.js';
