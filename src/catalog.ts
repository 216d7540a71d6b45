// The operation catalog: every operation the doors may call, as the assembly provides for them.
// Typed against Services, so an operation whose ctx needs a runtime the assembly does not build
// fails to compile here. A new capability plugs in with one line.
import type { Operation } from './platform/operation.ts';
import { registerOwnerTools } from './platform/next-step.ts';
import type { Services } from './services.ts';
import { capabilityHash } from './listings/capabilities.ts';
import { probeClean, checkLiveness, freeScore, scoreRubric } from './probe/operations.ts';
import { publish, checkStatus } from './registry/operations.ts';
import { claimListing } from './registry/claim.ts';
import { verifyClaim } from './registry/verify-claim.ts';
import { deleteListingOp, updateListingOp } from './registry/owner-listing.ts';
import { talkCheckIn, talkPresence } from './registry/talk.ts';
import { listActiveListings } from './registry/active.ts';
import { publicFeed } from './feed/operations.ts';
import { ardSearch, searchActive, matchCapability } from './registry/search.ts';
import { ardExplore, ardRegistrySearch, ardResolve } from './registry/ard-registry.ts';
import { attest, bindIdentity, verifyAttestation } from './identity/operations.ts';
import { meshMatch, meshCompose } from './mesh/operations.ts';
import { executeCompose, usedWith } from './mesh/ladder.ts';
import { attractorTargets, composePeers, followTrail, seedCompositions } from './mesh/trails.ts';
import { interopResolve, interopSession } from './mesh/interop.ts';
import { joinAndContribute } from './registry/join.ts';
import { leaveFeedback, completeFoundingPath } from './registry/feedback.ts';
import { takeDemo, takeDemoByQuery } from './registry/demo.ts';
import { installProduct, exportSkills, productAccess } from './registry/products.ts';
import { getProductToken } from './registry/product-token.ts';
import { getFoundingDeal, coSignFounding, getCoSignPairs } from './funnel/operations.ts';
import { improveKernel, runLoopTick } from './kernel/operations.ts';
import { listEventPricing, getReciprocity, costModel } from './metering/operations.ts';
import { getIncentives } from './registry/incentives.ts';
import { leaveTrace, senseTraces, endorse, depositOutcome, networkSense } from './traces/operations.ts';
import { connectorDaily, connectorPrep } from './connectors/operations.ts';
import { collabAccessStatus, collabRun, collabSessionOpen, completeCollabPath, createCollabWorkflow, listCollabWorkflows } from './collab/operations.ts';
import { collabSessionClaim, collabSessionClose, collabSessionJoin, collabSessionMessage, collabSessionNext, collabSessionResult, listCollabSessions } from './collab/sessions.ts';
import { buyCollabProduct, installCollabProduct, listCollabMarket, publishCollabProduct } from './collab/market.ts';
import { registerCollabByo } from './registry/collab-byo.ts';
import { feedbackPreferences } from './feedback/preferences.ts';
import { listFeedback } from './registry/feedback-envelope.ts';
import { productsAgent } from './registry/agent.ts';
import { getFeedbackPricing } from './registry/pricing.ts';
import { listOpportunities } from './registry/opportunities.ts';
import { productLearning, improvementLog } from './registry/learning.ts';
import { listingLifecycle, discoveryPack, foundingDogfood } from './registry/network-surfaces.ts';
import { networkValue, getAcceleration } from './economics/operations.ts';
import { getExonomics } from './economics/exonomics.ts';
import { hyperIndex } from './economics/hyper.ts';
import { abundanceRank } from './economics/abundance.ts';
import { sCurveBoard } from './economics/s-curve.ts';
import { getPlatformCost } from './economics/platform-cost.ts';
import { getAgentRuns } from './economics/agent-runs.ts';
import { zeroMcPack } from './registry/zero-mc-pack.ts';

// biome-ignore lint/suspicious/noExplicitAny: inputs and results differ per operation; only the ctx they need is checked here
export const operations: readonly Operation<any, any, Services>[] = [
  publish,
  checkStatus,
  claimListing,
  verifyClaim,
  updateListingOp,
  deleteListingOp,
  listActiveListings,
  searchActive,
  matchCapability,
  ardSearch,
  ardRegistrySearch,
  ardExplore,
  ardResolve,
  capabilityHash,
  talkPresence,
  talkCheckIn,
  probeClean,
  checkLiveness,
  freeScore,
  scoreRubric,
  publicFeed,
  bindIdentity,
  attest,
  verifyAttestation,
  meshMatch,
  meshCompose,
  usedWith,
  executeCompose,
  followTrail,
  composePeers,
  seedCompositions,
  attractorTargets,
  interopResolve,
  interopSession,
  joinAndContribute,
  takeDemo,
  takeDemoByQuery,
  leaveFeedback,
  completeFoundingPath,
  getFoundingDeal,
  coSignFounding,
  getCoSignPairs,
  installProduct,
  getProductToken,
  exportSkills,
  productAccess,
  improveKernel,
  runLoopTick,
  listEventPricing,
  getReciprocity,
  costModel,
  getIncentives,
  leaveTrace,
  senseTraces,
  endorse,
  depositOutcome,
  networkSense,
  connectorDaily,
  connectorPrep,
  collabAccessStatus,
  createCollabWorkflow,
  completeCollabPath,
  listCollabWorkflows,
  collabRun,
  collabSessionOpen,
  collabSessionJoin,
  collabSessionNext,
  collabSessionClaim,
  collabSessionResult,
  collabSessionMessage,
  collabSessionClose,
  listCollabSessions,
  publishCollabProduct,
  listCollabMarket,
  buyCollabProduct,
  installCollabProduct,
  registerCollabByo,
  listFeedback,
  productsAgent,
  getFeedbackPricing,
  listOpportunities,
  productLearning,
  improvementLog,
  listingLifecycle,
  feedbackPreferences,
  discoveryPack,
  foundingDogfood,
  getExonomics,
  networkValue,
  getAcceleration,
  hyperIndex,
  abundanceRank,
  zeroMcPack,
  sCurveBoard,
  getPlatformCost,
  getAgentRuns,
];

registerOwnerTools(operations.filter((op) => op.ownerOnly).map((op) => op.name));
