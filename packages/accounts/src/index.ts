// The package's public entry: what the other packages of the service use.
export * from './data/apiKeys.js';
export {
  allowanceMailsOn,
  setAllowanceMails,
} from './data/holderNotices.js';
export * from './data/keyOwners.js';
export * from './data/monthlyUsage.js';
export * from './data/operatorAudit.js';
export * from './data/usageHistoryQueries.js';
export * from './demoKey.js';
export * from './keyRequests/keyRequestService.js';
export * from './keys/apiKeySecret.js';
export * from './mail/accountMessages.js';
export * from './mail/holderMessages.js';
export * from './mail/mailer.js';
export * from './mail/operatorMessages.js';
export {
  type HolderMailOutcome,
  type HolderMailSettings,
  recordDueNotices,
  sweepHolderMail,
} from './notices/holderMailSweep.js';
export {
  noticeWaitingRequests,
  type OperatorNoticeSettings,
  requestsWaitingIntervalMinutes,
} from './notices/operatorNotices.js';
export * from './mail/publicAddress.js';
export { changePlanAndTell } from './notices/planChangeNotice.js';
export { renewAndTell } from './notices/renewalNotice.js';
export * from './operator/auditChange.js';
export { actorName, auditSentence, holderNames } from './operator/auditSentence.js';
export * from './operator/operatorApi.js';
export * from './operator/operatorError.js';
export * from './operator/operatorInput.js';
export * from './rules.js';
export * from './holders/holderKeys.js';
export * from './holders/holderSignIn.js';
export * from './holders/tooManyActions.js';
export { renewalDays } from './keyRequests/holderRequestDecisions.js';
export * from './mail/inertText.js';
export * from './publicForms/proofOfWork.js';
