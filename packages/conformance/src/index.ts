/** The conformance suite as a library: the CLI (cli.ts) and the tests compose these. */
export {
  contractOperations,
  countedStatuses,
  documentedResponses,
  type DocumentedResponse,
  type OperationSpec,
} from './contract/operations.js';
export { type PlanRules, planRules } from './contract/plans.js';
export { assessDreddRun } from './dredd/assessDreddRun.js';
export { type DreddRun, type OutageControl, runDredd } from './dredd/runDredd.js';
export { planMockTransactions, planServerTransactions } from './dredd/transactionPlan.js';
export { type Exchange, ObservedClient } from './http/observedClient.js';
export { type PropertyKeys, type PropertyOptions, runRequestProperties } from './properties/runProperties.js';
export { type Check, Report } from './report/report.js';
export { checkMock, type ConformanceOptions, ConformanceSession, runConformance } from './session.js';
export { RunNotPossible } from './runNotPossible.js';
export type { GivenKeys } from './target/givenKeys.js';
export { ContractValidator, type ObservedResponse, type ValidationIssue } from './validation/contractValidator.js';
export { ResponseLedger } from './validation/responseLedger.js';
