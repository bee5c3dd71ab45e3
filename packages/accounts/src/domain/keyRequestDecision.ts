/**
 * What happens to a request once its address is confirmed: granted at once, or left for the
 * operator with every reason in words. Plain data in, no I/O: the checks that need the database
 * (an earlier trial of the person or the network) are looked up by the caller.
 */
export interface DecisionFacts {
  readonly plan: string;
  /** The plan is marked `self_service` in the contract's x-plans. */
  readonly selfService: boolean;
  /** The address's domain is on the disposable-mail list. */
  readonly disposableDomain: string | null;
  /** An earlier trial granted to the same network within the look-back, if any. */
  readonly networkTrial: { readonly network: string; readonly requestId: string; readonly grantedAt: string } | null;
}

export const networkLookbackDays = 30;

/** The reasons the request waits for the operator; none: grant it (subject to the one-trial-per-person rule). */
export function waitingReasons(facts: DecisionFacts): string[] {
  const reasons: string[] = [];
  if (!facts.selfService) reasons.push(`the ${facts.plan} plan is granted by the operator`);
  if (facts.disposableDomain !== null) reasons.push(`${facts.disposableDomain} is a disposable-mail domain`);
  if (facts.networkTrial !== null)
    reasons.push(
      `one trial per network: ${facts.networkTrial.network} had a trial granted ${facts.networkTrial.grantedAt} (request ${facts.networkTrial.requestId}) within ${networkLookbackDays} days`,
    );
  return reasons;
}

/**
 * The same reasons as the person who asked may read them: their own plan and domain, and of an
 * earlier trial only that there was one, never whose it was, when, or which request.
 */
export function waitingReasonsForHolder(facts: DecisionFacts): string[] {
  const reasons: string[] = [];
  if (!facts.selfService) reasons.push(`requests for the ${facts.plan} plan are read and answered by the operator`);
  if (facts.disposableDomain !== null)
    reasons.push(`${facts.disposableDomain} is a disposable-mail service, so a person looks at the request first`);
  if (facts.networkTrial !== null)
    reasons.push(
      `a trial key was given to someone on the same network as you (the same internet connection or office) in the last ${networkLookbackDays} days, and a network gets one trial unless the operator agrees to another`,
    );
  return reasons;
}

/** Why a trial waits when the person or application had one, as the person who asked may read it. */
export const personTrialReasonForHolder =
  'this address or application already had a trial key, and a person gets one trial unless the operator agrees to another';

/** The holder's reasons as one sentence, the same on the confirmation page and in the receipt mail. */
export function waitingBecause(reasons: readonly string[]): string {
  return reasons.length === 0 ? '' : `It waits for a person because ${reasons.join('; and ')}.`;
}
