// Claim: one unit of knowledge in a memory body (a list item, a sentence, a
// whole `## Solution:` section), the unit in which engram moves knowledge.
// Part of the plugin SDK; header-only so plugins link nothing.
#pragma once

#include <string>

namespace engram {

// Where a claim belongs when an episodic memory decays.
enum class ClaimKind {
  factual,     // a timeless fact: goes to semantic/
  behavioural, // an instruction (always, never, prefer, ...): goes to procedural/feedback.md
  reference,   // a pointer to an external place: goes to reference/
  solution,    // a whole `## Solution: <slug>` section: goes to procedural/feedback.md whole
  task, // a to-do or open item ("TODO: …", "- [ ] …", "Follow up with …"): not lasting knowledge
  metadata, // about the session itself ("**Session ID**: …", "Source: telegram"): not knowledge
};

// How much of its claims a rule asks for: classifying a claim (its kind) is
// most of what splitting a body costs, and many rules read only the text.
enum class ClaimDetail {
  classified,   // every claim with its kind
  unclassified, // every kind factual but a `Solution:` section's (solution)
};

// One claim, with the text exactly as written in its source.
struct Claim {
  std::string text;    // the source Markdown of the claim (a fenced code block after it included)
  std::string context; // the headings above it, outermost first, joined by " > "
  std::string title;   // for a solution: the slug after `## Solution:`; else empty
  ClaimKind kind = ClaimKind::factual;
  int line = 1; // 1-based line of the body (offset by the caller to a file line)
};

// How an incoming claim relates to an existing one.
enum class Relation {
  distinct,  // different knowledge: both are kept
  duplicate, // the same knowledge (equal after normalising, or near-equal by token containment)
  update,    // the same subject with a changed value or flipped polarity: the incoming one wins
  uncertain, // the same subject, one word of what it says replaced ("uses Slack", "uses
             // Jira"): both are kept, and the pair is flagged for a person to judge
};

} // namespace engram
