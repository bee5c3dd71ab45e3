import { agingAndGrowingOld } from './agingAndGrowingOld.js';
import { artAndLiterature } from './artAndLiterature.js';
import { athletesAndSportsLegends } from './athletesAndSportsLegends.js';
import { beautyAndAesthetics } from './beautyAndAesthetics.js';
import type { CategoryBank } from './categoryBank.js';
import { communityAndService } from './communityAndService.js';
import { conscienceAndIntegrity } from './conscienceAndIntegrity.js';
import { courageAndStrength } from './courageAndStrength.js';
import { creativityAndInnovation } from './creativityAndInnovation.js';
import { cultureAndHeritage } from './cultureAndHeritage.js';
import { curiosityAndWonder } from './curiosityAndWonder.js';
import { dignityAndHonor } from './dignityAndHonor.js';
import { doubtAndUncertainty } from './doubtAndUncertainty.js';
import { educationAndLearning } from './educationAndLearning.js';
import { familyAndParenting } from './familyAndParenting.js';
import { forgivenessAndLettingGo } from './forgivenessAndLettingGo.js';
import { freedomAndLiberty } from './freedomAndLiberty.js';
import { friendshipAndLoyalty } from './friendshipAndLoyalty.js';
import { griefAndLoss } from './griefAndLoss.js';
import { happinessAndPeace } from './happinessAndPeace.js';
import { hardshipAndAdversity } from './hardshipAndAdversity.js';
import { hopeAndOptimism } from './hopeAndOptimism.js';
import { humorAndWit } from './humorAndWit.js';
import { justiceAndEquality } from './justiceAndEquality.js';
import { leadershipAndBusiness } from './leadershipAndBusiness.js';
import { lifeAndHumanNature } from './lifeAndHumanNature.js';
import { lonelinessAndSolitude } from './lonelinessAndSolitude.js';
import { loveAndRelationships } from './loveAndRelationships.js';
import { marriageAndPartnership } from './marriageAndPartnership.js';
import { memoryAndNostalgia } from './memoryAndNostalgia.js';
import { mentalHealthAndRecovery } from './mentalHealthAndRecovery.js';
import { moneyAndWealth } from './moneyAndWealth.js';
import { motivationAndSuccess } from './motivationAndSuccess.js';
import { natureAndEnvironment } from './natureAndEnvironment.js';
import { parentingAndChildren } from './parentingAndChildren.js';
import { politicsAndGovernance } from './politicsAndGovernance.js';
import { scienceAndReason } from './scienceAndReason.js';
import { silenceAndStillness } from './silenceAndStillness.js';
import { spiritualityAndFaith } from './spiritualityAndFaith.js';
import { timeAndMortality } from './timeAndMortality.js';
import { travelAndAdventure } from './travelAndAdventure.js';
import { warAndConflict } from './warAndConflict.js';
import { wisdomAndPhilosophy } from './wisdomAndPhilosophy.js';
import { workAndPurpose } from './workAndPurpose.js';

export type { CategoryBank } from './categoryBank.js';

/**
 * Every bank. The generator matches them to the contract's categories by name and refuses to
 * start if a category has no bank or a bank names no category, so this list can never drift.
 */
export const categoryBanks: readonly CategoryBank[] = [
  agingAndGrowingOld,
  artAndLiterature,
  athletesAndSportsLegends,
  beautyAndAesthetics,
  communityAndService,
  conscienceAndIntegrity,
  courageAndStrength,
  creativityAndInnovation,
  cultureAndHeritage,
  curiosityAndWonder,
  dignityAndHonor,
  doubtAndUncertainty,
  educationAndLearning,
  familyAndParenting,
  forgivenessAndLettingGo,
  freedomAndLiberty,
  friendshipAndLoyalty,
  griefAndLoss,
  happinessAndPeace,
  hardshipAndAdversity,
  hopeAndOptimism,
  humorAndWit,
  justiceAndEquality,
  leadershipAndBusiness,
  lifeAndHumanNature,
  lonelinessAndSolitude,
  loveAndRelationships,
  marriageAndPartnership,
  memoryAndNostalgia,
  mentalHealthAndRecovery,
  moneyAndWealth,
  motivationAndSuccess,
  natureAndEnvironment,
  parentingAndChildren,
  politicsAndGovernance,
  scienceAndReason,
  silenceAndStillness,
  spiritualityAndFaith,
  timeAndMortality,
  travelAndAdventure,
  warAndConflict,
  wisdomAndPhilosophy,
  workAndPurpose,
];
